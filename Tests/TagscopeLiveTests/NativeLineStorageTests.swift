import Foundation
import TagscopeRecording
import XCTest

/// A native client's record is stored as the bytes that arrived, with `source` added: never
/// decoded and encoded again (number spellings, key order and unknown nested fields stay).
final class NativeLineStorageTests: XCTestCase {
  func testANativeRecordIsStoredAsItArrivedWithItsSource() async throws {
    let harness = try await QueryAPIHarness.start(plan: nil)
    let sent =
      #"{"seq":1,"time":"2026-11-21T10:00:01.000Z","kind":"event","name":"priced","#
      + #""properties":{"price":1.50,"big":1e3},"vendor":{"nested":[1,{"deep":true}]},"source":"spoofed"}"#
    try harness.send([sent])
    let arrived = try harness.request("wait?filter=\(queryValue("name:priced"))&timeout=60")
    XCTAssertEqual(arrived.status, 200)
    harness.session.flush()
    let lines = try String(contentsOf: harness.recording, encoding: .utf8).split(separator: "\n")
    let stored = try XCTUnwrap(lines.first { $0.contains("\"priced\"") })
    XCTAssertEqual(String(stored), String(sent.dropLast()) + #","source":"App@sim"}"#)
    let record = try harness.timeline.record(at: 0)
    XCTAssertEqual(record.source, "App@sim", "the source listen gives wins over the client's")
    XCTAssertEqual(record.properties["price"], .double(1.5))
    try await harness.stop()
  }
}
