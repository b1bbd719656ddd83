import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

/// The recording's timestamp codec (moved here from AnalyticsHub with the recording format).
final class TimestampTests: XCTestCase {
  func testTimestampsRoundTripAtMillisecondPrecision() throws {
    let date = Date(timeIntervalSince1970: 1_795_255_204.21)
    XCTAssertEqual(ISO8601Timestamp.string(from: date), "2026-11-21T10:00:04.210Z")
    let parsed = try XCTUnwrap(ISO8601Timestamp.date(from: "2026-11-21T10:00:04.210Z"))
    XCTAssertEqual(parsed.timeIntervalSince1970, 1_795_255_204.21, accuracy: 0.0005)
    XCTAssertEqual(
      ISO8601Timestamp.date(from: "2026-11-21T11:00:04+01:00")?.timeIntervalSince1970, 1_795_255_204)
    XCTAssertEqual(
      ISO8601Timestamp.string(from: Date(timeIntervalSince1970: -0.5)), "1969-12-31T23:59:59.500Z")
    XCTAssertNil(ISO8601Timestamp.date(from: "2026-13-21T10:00:04Z"))
    XCTAssertNil(ISO8601Timestamp.date(from: "yesterday"))
  }

  func testTimestampsMatchFoundationFormatter() {
    let formatter = ISO8601DateFormatter()
    formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let seconds =
        Double(Int.random(in: 0...4_000_000_000, using: &generator)) + Double(Int.random(in: 0...999)) / 1000
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(ISO8601Timestamp.string(from: date), formatter.string(from: date))
    }
  }

  func testTheHubsDateTextIsTheRecordingsTimestamp() {
    var generator = SystemRandomNumberGenerator()
    for _ in 0..<500 {
      let seconds =
        Double(Int.random(in: 0...4_000_000_000, using: &generator)) + Double(Int.random(in: 0...999)) / 1000
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(PropertyValue.text(of: date), ISO8601Timestamp.string(from: date))
    }
    for seconds in [-0.5, -0.0004, -1_000_000.123, 0, 0.0005, 0.9995] {
      let date = Date(timeIntervalSince1970: seconds)
      XCTAssertEqual(PropertyValue.text(of: date), ISO8601Timestamp.string(from: date), "\(seconds)")
    }
  }
}
