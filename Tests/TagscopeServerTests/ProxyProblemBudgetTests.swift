import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The proxy's reports of a vendor's failures and error answers count against the connection's
/// problem budget (``ProblemBudget``), as `listen`'s refusals do: a client hammering a vendor that
/// refuses it cannot flood the session with problems.
final class ProxyProblemBudgetTests: XCTestCase {
  func testVendorErrorAnswersCountAgainstTheConnectionsProblemBudget() async throws {
    // The vendor: a `listen` server, answering a body that is no JSON with 400.
    let (vendor, _) = try await startServer()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-budget-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var configuration = ListenConfiguration(port: 0)
    configuration.host = "127.0.0.1"
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: vendor.port)])
    let (server, collector) = try await startServer(configuration)
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    let body = "not json"
    // Each request is two problems: the decoder's refusal (forwarded as it was) and the vendor's 400.
    let requests = ProblemBudget.limit
    for _ in 0..<requests {
      client.send(
        "POST http://api.segment.io/v1/track HTTP/1.1\r\nHost: api.segment.io\r\n"
          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
      XCTAssertEqual(client.readResponse()?.status, 400)
    }
    client.disconnect()
    XCTAssertTrue(eventually { server.statistics.openConnections == 0 }, server.statistics.summary)
    let reported = {
      collector.events.compactMap { event -> String? in
        if case .problem(_, let message) = event { return message }
        return nil
      }
    }
    XCTAssertTrue(eventually { reported().count == ProblemBudget.limit + 1 }, "\(reported())")
    let problems = reported()
    XCTAssertEqual(problems.filter { $0.contains("answered 400") }.count, requests / 2, "\(problems)")
    XCTAssertEqual(problems.last, "\(requests) more problems on this connection, not shown")
    try await server.shutdown()
    try await vendor.shutdown()
  }
}
