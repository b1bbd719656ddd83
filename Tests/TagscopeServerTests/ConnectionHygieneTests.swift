import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// What one hostile connection can cost: a refused stream frees its source name, a source name is
/// bounded, and problems are reported one by one only up to a budget per connection.
final class ConnectionHygieneTests: XCTestCase {
  private let header = #"{"format":"tagscope-recording","version":1,"app":"A","device":"D"}"# + "\n"
  private let record = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"one"}"# + "\n"

  private func wait(_ collector: Collector, until done: ([ListenEvent]) -> Bool) -> [ListenEvent] {
    eventually { done(collector.events) }
    return collector.events
  }

  private func problems(_ events: [ListenEvent]) -> [String] {
    events.compactMap { event in
      if case .problem(_, let message) = event { return message }
      return nil
    }
  }

  private func disconnects(_ events: [ListenEvent]) -> [String] {
    events.compactMap { event in
      if case .sourceDisconnected(let source) = event { return source }
      return nil
    }
  }

  func testAStreamRefusedForAnOverlongLineFreesItsSourceName() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.maximumLineBytes = 1024
    let (server, collector) = try await startServer(configuration)
    for round in 1...5 {
      let client = try RawClient(port: server.port)
      client.send(header + record)
      collector.waitForRecords(round)
      client.send(String(repeating: "x", count: 4096))
      XCTAssertTrue(client.waitForClose())
      _ = wait(collector) { disconnects($0).count == round }
    }
    try await server.shutdown()
    // Each new connection got the name back: a leaked name would make them `A@D #2`, `#3`, ….
    XCTAssertEqual(collector.records.map(\.source), Array(repeating: "A@D", count: 5))
    XCTAssertEqual(disconnects(collector.events), Array(repeating: "A@D", count: 5))
    XCTAssertEqual(server.statistics.rejected[.lineTooLong], 5)
  }

  func testAHugeAppNameIsClippedInTheSourceName() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    let app = String(repeating: "a", count: 100_000)
    client.send(#"{"format":"tagscope-recording","version":1,"app":"\#(app)"}"# + "\n" + record)
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    let source = try XCTUnwrap(records.first?.source)
    XCTAssertLessThanOrEqual(source.count, NativeStreamHandler.sourceLimit + 1)
    XCTAssertTrue(source.hasPrefix("aaaa") && source.hasSuffix("…"), source)
  }

  func testBadLinesPastTheBudgetAreCountedAndSummedUpAtClose() async throws {
    let (server, collector) = try await startServer()
    do {
      let client = try RawClient(port: server.port)
      client.send(header + String(repeating: "{not json\n", count: 25) + record)
      collector.waitForRecords(1)
    }
    let events = wait(collector) { disconnects($0).count == 1 }
    try await server.shutdown()
    let reported = problems(events)
    XCTAssertEqual(reported.count, ProblemBudget.limit + 1, "\(reported)")
    XCTAssertTrue(reported[0].hasPrefix("line 2:"), reported[0])
    XCTAssertTrue(reported[ProblemBudget.limit - 1].contains("counted, not shown"))
    XCTAssertEqual(reported.last, "15 more problems on this connection, not shown")
    XCTAssertEqual(server.statistics.rejected[.badLine], 25, "every bad line is still counted")
  }

  func testRefusedHTTPRequestsOnOneConnectionStayWithinTheBudget() async throws {
    let (server, collector) = try await startServer()
    do {
      let client = try RawClient(port: server.port)
      let request = "GET /nowhere HTTP/1.1\r\nHost: localhost\r\n\r\n"
      var answered = 0
      for _ in 0..<15 {
        client.send(request)
        if client.readResponse()?.status == 404 { answered += 1 }
      }
      XCTAssertEqual(answered, 15, "one keep-alive connection")
    }
    let events = wait(collector) { problems($0).count == ProblemBudget.limit + 1 }
    try await server.shutdown()
    let reported = problems(events)
    XCTAssertEqual(reported.count, ProblemBudget.limit + 1, "\(reported)")
    XCTAssertEqual(reported.last, "5 more problems on this connection, not shown")
    XCTAssertEqual(server.statistics.rejected[.unknownEndpoint], 15)
  }

  func testALongProblemMessageIsClipped() {
    var budget = ProblemBudget()
    guard
      case .problem(_, let message)? = budget.problem(
        source: "s", message: String(repeating: "m", count: 10_000))
    else { return XCTFail("the first problem is shown") }
    XCTAssertEqual(message.count, ProblemBudget.messageLimit + 1)
  }
}
