import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31, "accepted but unreadable": a PostHog event with a 17 MiB name was answered `200` and
/// became a 71 MB line that `validate` skipped. One event past ``EventSizeLimit`` now refuses its
/// request whole with the endpoint's "too large" reply, on the lazy (large batch) and eager paths.
/// PostHog's own bound on one event, 1 MB (the registry's `Vendor.Limit.postHogCapture`), now comes first on its paths.
final class EventSizeLimitTests: XCTestCase {
  private func post(_ path: String, _ body: String) -> String {
    "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  private let huge = String(repeating: "n", count: EventSizeLimit.bytes + 1)

  func testARequestWithOneEventPastTheLimitIsRefusedWholeAndTheNextRecorded() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    // PostHog's /batch of 300 events (decoded lazily) with one huge name among them: past
    // PostHog's own 1 MB first.
    let small = (0..<300).map { #"{"event":"e\#($0)","distinct_id":"d"}"# }
    let lazy = small + [#"{"event":"\#(huge)","distinct_id":"d"}"#]
    client.send(post("/batch/", #"{"api_key":"k","batch":["# + lazy.joined(separator: ",") + "]}"))
    let refusedLazily = client.readResponse()
    // Amplitude's batch API, decoded at once, with one huge property value.
    client.send(
      post(
        "/batch",
        #"{"api_key":"k","events":[{"event_type":"ok","user_id":"user-1"},"#
          + #"{"event_type":"big","user_id":"user-1","event_properties":{"text":"\#(huge)"}}]}"#
      ))
    let refusedEagerly = client.readResponse()
    client.send(post("/capture/", #"{"api_key":"k","event":"after","distinct_id":"d"}"#))
    let accepted = client.readResponse()
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(refusedLazily?.status, 413)
    XCTAssertEqual(refusedEagerly?.status, 413)
    XCTAssertEqual(accepted?.status, 200)
    XCTAssertEqual(records.map(\.name), ["after"], "nothing of a refused request is recorded")
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 1, "PostHog's 1 MB per event")
    XCTAssertEqual(server.statistics.rejected[.eventTooLarge], 1)
  }

  func testAnEventJustUnderTheLimitIsRecordedWhole() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    let name = String(repeating: "n", count: EventSizeLimit.bytes - 100)
    // Amplitude's batch API, which documents no bound on one event but its 20 MB request.
    client.send(post("/batch", #"{"api_key":"k","events":[{"event_type":"\#(name)","user_id":"user-1"}]}"#))
    let reply = client.readResponse()
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(records.first?.name.utf8.count, name.utf8.count)
  }
}
