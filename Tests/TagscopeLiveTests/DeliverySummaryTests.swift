import Foundation
import TagscopeLive
import TagscopeTestSupport
import XCTest

/// The delivery ledger's line in a headless `listen`'s summary, fed by its one live session.
final class DeliverySummaryTests: XCTestCase {
  func testTheHeadlessSummarySaysWhatBecameOfTheAppsCalls() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let (_, _, notices) = try await runListen(recording: url) { port, _ in
      let app = try RawClient(port: port)
      app.send(#"{"format":"tagscope-recording","version":1,"app":"Shop","device":"QA"}"# + "\n")
      // A Segment call the app made, and an Amplitude one; only Segment's SDK reaches listen.
      for (seq, provider, name) in [(1, "segment", "Checkout"), (2, "amplitude", "Checkout")] {
        app.send(
          #"{"seq":\#(seq),"time":"2026-11-21T10:00:04.210Z","kind":"event","name":"checkout","#
            + #""outputs":[{"provider":"\#(provider)","status":"sent","calls":[{"method":"track","#
            + #""name":"\#(name)","parameters":{"total":12}}]}]}"# + "\n")
      }
      let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Checkout","properties":{"total":12}}"#
      let (status, _) = try RawClient.exchange(
        port,
        "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
          + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
      XCTAssertEqual(status, 200)
      XCTAssertTrue(eventually { (try? recordedRecords(url).count) == 3 })
    }
    XCTAssertTrue(
      notices.contains("delivery: 2 calls · 1 delivered · 1 with no wire source"),
      notices.joined(separator: "\n"))
  }
}
