import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds Firebase's `app-measurement.com/a` uploads from the records
/// of each upload (each keeps its bundle's context, its message and its place): the protobuf
/// encoded with the schema's types, gzip'd, base64 in the entry; an upload that held fields the
/// schema does not know is not rebuilt.
final class HARRebuildFirebaseTests: XCTestCase {
  private let round = HARRebuildRoundTrip()

  private func fixture(_ name: String) throws -> [UInt8] {
    Array(try Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/firebase-upload/" + name)))
  }

  /// The HAR of `bodies` posted to `/a` as the SDKs post them (base64; gzip'd ones with
  /// `Content-Encoding: gzip`).
  private func har(_ bodies: [[UInt8]]) -> String {
    let entries = bodies.enumerated().map { index, body -> String in
      let gzip = body.starts(with: [0x1f, 0x8b])
      let headers = gzip ? #"[{"name":"Content-Encoding","value":"gzip"}]"# : "[]"
      return
        #"{"startedDateTime":"2026-11-25T10:00:0\#(index).000Z","request":{"method":"POST","#
        + #""url":"http://127.0.0.1:8080/a","httpVersion":"HTTP/1.1","headers":\#(headers),"queryString":[],"#
        + #""postData":{"mimeType":"application/x-www-form-urlencoded","encoding":"base64","#
        + #""text":"\#(Data(body).base64EncodedString())"}},"response":{"status":204,"headers":[],"#
        + #""content":{"size":0}},"timings":{}}"#
    }
    return #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
      + entries.joined(separator: ",") + "]}}"
  }

  /// The 2024 Android capture, the 2023 iOS upload and the 2020 raw iOS upload (two bundles) give
  /// one gzip'd upload back each, at app-measurement.com, and import again as the same records.
  func testUploadsRoundTripThroughTheirRebuild() throws {
    let bodies = try ["android-2024.pb.gz", "ios-2023-first-open.pb.gz", "ios-2020-raw.pb"].map(fixture)
    let (recording, first) = try round.imported(har(bodies))
    XCTAssertEqual(first.problems, [])
    XCTAssertGreaterThan(recording.count, 10)
    let (again, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(skipped.filter { $0 != .sameRequest }, [])
    XCTAssertEqual(requests.count, 3)
    for request in requests {
      XCTAssertEqual(request["url"] as? String, "https://app-measurement.com/a")
      let headers = (request["headers"] as? [[String: Any]]) ?? []
      XCTAssertTrue(
        headers.contains { $0["name"] as? String == "Content-Encoding" && $0["value"] as? String == "gzip" })
      let postData = try XCTUnwrap(request["postData"] as? [String: Any])
      XCTAssertEqual(postData["encoding"] as? String, "base64")
      let body = try XCTUnwrap(Data(base64Encoded: try XCTUnwrap(postData["text"] as? String)))
      XCTAssertEqual(Array(body.prefix(2)), [0x1f, 0x8b])
      XCTAssertEqual(request["bodySize"] as? Int, body.count)
    }
    let (records, summary) = try round.imported(again)
    XCTAssertEqual(summary.problems, [])
    XCTAssertEqual(summary.unread, [])
    XCTAssertEqual(records.count, recording.count)
    for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "record \(want.seq)") }
  }

  /// The 2021 Android capture held a field no schema knows (bundle field 45), which its records
  /// keep only the name of: none of them is rebuilt, and each says why.
  func testAnUploadWithUnknownFieldsIsNotRebuilt() throws {
    let (recording, _) = try round.imported(har([try fixture("android-2021.pb.gz")]))
    XCTAssertEqual(recording.count, 13)
    let (_, requests, skipped) = try round.exported(recording)
    XCTAssertEqual(requests.count, 0)
    let said = HARRebuildRoundTrip.notRebuilt(skipped)
    XCTAssertEqual(said.count, 13)
    XCTAssertTrue(
      said.first?.hasPrefix("firebase: its upload held fields the schema does not know") == true, "\(said)")
  }

  /// The gzip stream the export writes reads back as its bytes (stored blocks past 64 KiB too).
  func testStoredGzipReadsBack() throws {
    for count in [0, 5, 70_000] {
      let bytes = (0..<count).map { UInt8(truncatingIfNeeded: $0 * 7) }
      let gzip = GzipStored.gzip(bytes)
      XCTAssertEqual(FirebaseUploadBody.encoding(of: gzip), "gzip")
      XCTAssertEqual(try FirebaseUploadBody.protobuf(gzip, limit: 1 << 20).get(), bytes, "\(count) bytes")
    }
    XCTAssertEqual(GzipStored.crc32(Array("123456789".utf8)), 0xcbf4_3926)
  }
}
