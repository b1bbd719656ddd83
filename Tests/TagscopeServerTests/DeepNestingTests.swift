import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A line of 100,000 `[` (or a body nesting as deep) is a clear error for the line or request
/// it is in; the stream and the server go on.
final class DeepNestingTests: XCTestCase {
  private let deep = String(repeating: "[", count: 100_000)

  func testNativeStreamReportsTheLineAndKeepsReading() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(#"{"format":"tagscope-recording","version":1,"app":"A","device":"D"}"# + "\n")
    client.send(deep + "\n")
    client.send(
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"after","properties":{"x":"#)
    client.send(deep + "}}\n")
    client.send(#"{"seq":2,"time":"2026-11-21T10:00:01.000Z","kind":"screen","name":"two"}"# + "\n")
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["two"])
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems.count, 2, "\(problems)")
    XCTAssertTrue(problems.allSatisfy { $0.contains("nesting deeper than 256 levels") }, "\(problems)")
    XCTAssertTrue(problems.first?.hasPrefix("line 2:") ?? false, "\(problems)")
  }

  func testHTTPBodyGets400AndTheServerGoesOn() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(port: server.port, path: "/v1/batch", body: #"{"batch":"# + deep)
    XCTAssertEqual(reply?.status, 400)
    XCTAssertTrue(reply?.body.contains("nesting deeper than 256 levels") ?? false, reply?.body ?? "")
    let track = #"{"type":"track","userId":"u-1","event":"Play","properties":{"n":1}}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/track", body: track)?.status, 200)
    collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(collector.records.map(\.name), ["Play"])
  }
}
