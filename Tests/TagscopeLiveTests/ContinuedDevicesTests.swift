import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// `listen --record FILE` continuing a recording carries on each SDK device's state from the
/// records already in it: a device's next event shows its last screen, session and user, under
/// the same source.
final class ContinuedDevicesTests: XCTestCase {
  /// A Segment iOS message (segmentio/analytics-swift's context keys) from `device`.
  private static func message(_ call: String, device: String, user: String? = nil) -> String {
    let user = user.map { #""userId":"\#($0)","# } ?? ""
    return #"{\#(call),\#(user)"anonymousId":"anon-\#(device)","context":{"app":{"name":"Shop"},"#
      + #""device":{"id":"\#(device)-0000-1111","model":"iPhone15,2"},"os":{"name":"iOS"}}}"#
  }

  private static func post(_ port: Int, _ messages: [String]) throws {
    let reply = try httpRequest(
      port: port, path: "/v1/batch", body: #"{"writeKey":"k","batch":[\#(messages.joined(separator: ","))]}"#)
    XCTAssertEqual(reply?.status, 200, reply?.body ?? "no reply")
  }

  func testDevicesCarryOnFromTheRecordingBeingContinued() async throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent(
      "continued-devices-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: file) }
    _ = try await runListen(recording: file) { port, _ in
      try Self.post(
        port,
        [
          Self.message(#""type":"screen","name":"Bravo Cart""#, device: "aaaa"),
          Self.message(#""type":"identify","traits":{"plan":"pro"}"#, device: "aaaa", user: "user-1"),
          Self.message(#""type":"screen","name":"Alpha Home""#, device: "bbbb"),
        ])
    }
    let first = try recordedRecords(file)
    XCTAssertEqual(first.count, 3)
    let notices = try await runListen(recording: file) { port, _ in
      try Self.post(
        port,
        [
          Self.message(#""type":"track","event":"Pay""#, device: "aaaa", user: "user-1"),
          Self.message(#""type":"track","event":"Add To Cart""#, device: "bbbb"),
        ])
    }.notices
    XCTAssertTrue(notices.contains { $0.hasPrefix("continuing the recording") }, "\(notices)")
    let records = try recordedRecords(file)
    XCTAssertEqual(records.count, 5)
    let (pay, add) = (records[3], records[4])
    XCTAssertEqual(pay.source, first[0].source, "the same device, the same source")
    XCTAssertEqual(add.source, first[2].source)
    XCTAssertEqual(pay.context.screen, "Bravo Cart", "its screen from the recording's records")
    XCTAssertEqual(pay.context.history, ["Bravo Cart"])
    XCTAssertEqual(pay.context.session?.user, "user-1")
    XCTAssertEqual(pay.context.session?.properties["plan"], "pro", "the user's traits carried on")
    XCTAssertEqual(add.context.screen, "Alpha Home")
    XCTAssertEqual(add.context.session?.state, "unauthenticated")
  }
}
