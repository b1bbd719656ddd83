import AnalyticsHub
import Foundation
import NIOCore
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// Hostile and broken HTTP clients: each gets the real service's status or is closed after a
/// timeout, is counted, and the server goes on.
final class HTTPReliabilityTests: XCTestCase {
  private let track = #"{"type":"track","userId":"u-1","event":"Play","properties":{"n":1}}"#

  func testSegmentMalformedJSONGets400WithCodeAndMessage() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(port: server.port, path: "/v1/batch", body: #"{"batch":[{"type":"track",]}"#)
    XCTAssertEqual(reply?.status, 400)
    XCTAssertTrue(reply?.body.contains(#""code":"invalid_request""#) ?? false, reply?.body ?? "")
    XCTAssertTrue(reply?.body.contains(#""message":"#) ?? false)
    let good = try httpRequest(port: server.port, path: "/v1/track", body: track)
    XCTAssertEqual(good?.status, 200)
    XCTAssertEqual(good?.body, #"{"success":true}"#)
    collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(collector.records.map(\.name), ["Play"])
    XCTAssertEqual(server.statistics.rejected[.malformedJSON], 1)
  }

  func testSegmentWrongContentTypeGets400() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(port: server.port, path: "/v1/track", contentType: "text/xml", body: track)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertTrue(collector.records.isEmpty)
    XCTAssertEqual(server.statistics.rejected[.wrongContentType], 1)
  }

  func testSegmentSizeLimits() async throws {
    let (server, collector) = try await startServer()
    let big = String(repeating: "a", count: 33 * 1024)
    let single = #"{"type":"track","userId":"u","event":"Big","properties":{"blob":"\#(big)"}}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/track", body: single)?.status, 400)
    let inBatch = #"{"batch":[\#(single)]}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/batch", body: inBatch)?.status, 400)
    let medium = String(repeating: "b", count: 20 * 1024)
    let message = #"{"type":"track","userId":"u","event":"M","properties":{"blob":"\#(medium)"}}"#
    let hugeBatch = #"{"batch":[\#(Array(repeating: message, count: 30).joined(separator: ","))]}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/batch", body: hugeBatch)?.status, 400)
    let fine = #"{"batch":[\#(Array(repeating: message, count: 20).joined(separator: ","))]}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/batch", body: fine)?.status, 200)
    collector.waitForRecords(20)
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 20)
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 3)
  }

  func testAmplitudeAnswersLikeAmplitude() async throws {
    let (server, collector) = try await startServer()
    let missing =
      #"{"api_key":"k","events":[{"event_type":"A","user_id":"user-1"},{"user_id":"user-1"},{"event_type":"C"}]}"#
    let reply = try httpRequest(port: server.port, path: "/2/httpapi", body: missing)
    XCTAssertEqual(reply?.status, 400)
    guard case .object(let body)? = try? JSONParser.parse(reply?.body ?? "") else {
      return XCTFail("not JSON: \(reply?.body ?? "")")
    }
    XCTAssertEqual(body["code"], 400)
    let fields = Payload.object(body["events_with_missing_fields"])
    XCTAssertEqual(fields["event_type"], [1])
    XCTAssertEqual(fields["user_id or device_id"], [2])
    let noKey = try httpRequest(port: server.port, path: "/2/httpapi", body: #"{"events":[]}"#)
    XCTAssertEqual(noKey?.status, 400)
    XCTAssertTrue(noKey?.body.contains(#""missing_field":"api_key""#) ?? false)
    let shortId = try httpRequest(
      port: server.port, path: "/2/httpapi",
      body: #"{"api_key":"k","events":[{"event_type":"A","user_id":"u1"}]}"#)
    XCTAssertTrue(shortId?.body.contains("events_with_invalid_id_lengths") ?? false)
    let event = #"{"event_type":"E","device_id":"device-1"}"#
    let tooMany =
      #"{"api_key":"k","events":[\#(Array(repeating: event, count: 2001).joined(separator: ","))]}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/2/httpapi", body: tooMany)?.status, 413)
    let ok = try httpRequest(
      port: server.port, path: "/2/httpapi", body: #"{"api_key":"k","events":[\#(event),\#(event)]}"#)
    XCTAssertEqual(ok?.status, 200)
    XCTAssertTrue(ok?.body.contains(#""events_ingested":2"#) ?? false, ok?.body ?? "")
    XCTAssertTrue(ok?.body.hasPrefix(#"{"code":200"#) ?? false)
    collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 2)
    XCTAssertEqual(server.statistics.rejected[.invalidPayload], 3)
    XCTAssertEqual(server.statistics.rejected[.tooManyEvents], 1)
  }

  func testAmplitudeBodyOverOneMegabyteGets413BeforeItIsRead() async throws {
    let (server, _) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(
      "POST /2/httpapi HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2000000\r\n\r\n"
    )
    client.send(Array(repeating: UInt8(ascii: " "), count: 1000))
    let reply = client.readResponse()
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 413)
    XCTAssertTrue(reply?.body.contains(#""code":413"#) ?? false)
  }

  func testMixpanelFormBase64AndGET() async throws {
    let (server, collector) = try await startServer()
    let payload = #"[{"event":"Play","properties":{"token":"t","distinct_id":"d-1","time":1700000000}}]"#
    let base64 = Data(payload.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
      .replacingOccurrences(of: "=", with: "%3D")
    let form = try httpRequest(
      port: server.port, path: "/track", contentType: "application/x-www-form-urlencoded",
      body: "data=\(base64)&verbose=1")
    XCTAssertEqual(form?.status, 200)
    XCTAssertEqual(form?.body, #"{"status":1,"error":null}"#)
    let get = try httpRequest(
      port: server.port, method: "GET", path: "/track?data=\(base64)", contentType: nil, body: "")
    XCTAssertEqual(get?.body, "1")
    let bad = try httpRequest(
      port: server.port, path: "/track", contentType: "application/x-www-form-urlencoded",
      body: "data=%7Bnope&verbose=1")
    XCTAssertEqual(bad?.status, 400)
    XCTAssertTrue(bad?.body.contains(#""status":0"#) ?? false)
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["Play", "Play"])
    XCTAssertEqual(records.first?.time, Date(timeIntervalSince1970: 1_700_000_000))
  }

  func testPostHogErrorShapes() async throws {
    let (server, _) = try await startServer()
    let noKey = try httpRequest(
      port: server.port, path: "/batch/", body: #"{"batch":[{"event":"x","distinct_id":"d"}]}"#)
    XCTAssertEqual(noKey?.status, 401)
    XCTAssertTrue(noKey?.body.contains(#""detail":"#) ?? false)
    let bad = try httpRequest(port: server.port, path: "/e/", body: "{")
    XCTAssertEqual(bad?.status, 400)
    XCTAssertTrue(bad?.body.contains(#""type":"validation_error""#) ?? false)
    let ok = try httpRequest(
      port: server.port, path: "/i/v0/e/",
      body: #"{"api_key":"k","event":"$pageview","distinct_id":"d","properties":{"$pathname":"/home"}}"#)
    XCTAssertEqual(ok?.body, #"{"status":1}"#)
    try await server.shutdown()
  }

  func testBadGzipGets400AndIsCounted() async throws {
    let (server, _) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/v1/batch", headers: ["Content-Encoding: gzip"],
      body: Array("not gzip at all".utf8))
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertEqual(server.statistics.rejected[.badEncoding], 1)
  }

  func testUnknownPathAndMethod() async throws {
    let (server, _) = try await startServer()
    XCTAssertEqual(try httpRequest(port: server.port, path: "/nowhere", body: "{}")?.status, 404)
    XCTAssertEqual(
      try httpRequest(port: server.port, method: "GET", path: "/v1/batch", body: "")?.status, 405)
    XCTAssertEqual(
      try httpRequest(port: server.port, method: "OPTIONS", path: "/v1/batch", body: "")?.status, 204)
    try await server.shutdown()
    XCTAssertEqual(server.statistics.rejected[.unknownEndpoint], 2)
  }

  func testKeepAliveServesSeveralRequestsOnOneConnection() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    for index in 0..<3 {
      let body = #"{"type":"track","userId":"u-1","event":"E\#(index)"}"#
      client.send(
        "POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      )
      XCTAssertEqual(client.readResponse()?.status, 200)
    }
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["E0", "E1", "E2"])
    let announced = collector.events.compactMap { event -> String? in
      if case .sourceConnected(let source, _) = event { return source }
      return nil
    }
    XCTAssertEqual(announced, ["segment@127.0.0.1"])
  }

  func testSilentClientIsClosedAfterTheTimeout() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.firstBytesTimeout = .milliseconds(200)
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.port)
    XCTAssertTrue(client.waitForClose())
    try await server.shutdown()
    XCTAssertEqual(server.statistics.timeouts[.silent], 1)
  }

  func testNeverEndingRequestGets408() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.requestTimeout = .milliseconds(300)
    let (server, collector) = try await startServer(configuration)
    let client = try RawClient(port: server.port)
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{\"ty"
    )
    let reply = client.readResponse()
    XCTAssertEqual(reply?.status, 408)
    XCTAssertTrue(client.waitForClose())
    try await server.shutdown()
    XCTAssertTrue(collector.records.isEmpty)
    XCTAssertEqual(server.statistics.timeouts[.request], 1)
  }

  func testTruncatedRequestIsCountedAndTheServerGoesOn() async throws {
    let (server, collector) = try await startServer()
    do {
      let client = try RawClient(port: server.port)
      client.send(
        "POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"type\""
      )
    }
    XCTAssertTrue(eventually { server.statistics.truncated == 1 })
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/track", body: track)?.status, 200)
    collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(server.statistics.truncated, 1)
    XCTAssertEqual(collector.records.count, 1)
  }

  func testGarbageAndTLSAreRefused() async throws {
    let (server, _) = try await startServer()
    let tls = try RawClient(port: server.port)
    tls.send([0x16, 0x03, 0x01, 0x00, 0x10])
    XCTAssertTrue(tls.waitForClose())
    let garbage = try RawClient(port: server.port)
    garbage.send("GARBAGE\r\n\r\n")
    let reply = garbage.readResponse()
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertEqual(server.statistics.rejected[.unknownProtocol], 1)
    XCTAssertEqual(server.statistics.rejected[.badHTTP], 1)
  }

  func testTwoHundredConnectionsAtOnce() async throws {
    let (server, collector) = try await startServer()
    var clients: [RawClient] = []
    for _ in 0..<200 { clients.append(try RawClient(port: server.port)) }
    for (index, client) in clients.enumerated() {
      let body = #"{"type":"track","userId":"u-\#(index)","event":"E"}"#
      client.send(
        "POST /v1/track HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      )
    }
    var statuses: [Int] = []
    for client in clients { statuses.append(client.readResponse()?.status ?? -1) }
    let records = collector.waitForRecords(200)
    try await server.shutdown()
    XCTAssertEqual(statuses, Array(repeating: 200, count: 200))
    XCTAssertEqual(records.count, 200)
    XCTAssertEqual(Set(records.map(\.seq)).count, 200)
    XCTAssertGreaterThanOrEqual(server.statistics.connections, 200)
  }

  func testANewConnectionAtTheLimitClosesTheLongestIdleOne() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.maximumConnections = 3
    let (server, collector) = try await startServer(configuration)
    var clients: [RawClient] = []
    for _ in 0..<3 {
      clients.append(try RawClient(port: server.port, timeout: 60))
      XCTAssertTrue(eventually { server.statistics.openConnections == clients.count })
    }
    // The first two speak (a native header) once all three are open: the third, silent since it
    // opened, is the longest idle.
    clients[0].send(#"{"format":"tagscope-recording","version":1,"app":"A"}"# + "\n")
    clients[1].send(#"{"format":"tagscope-recording","version":1,"app":"B"}"# + "\n")
    XCTAssertTrue(
      eventually {
        let sources = collector.events.compactMap { event -> String? in
          if case .sourceConnected(let source, _) = event { return source }
          return nil
        }
        return Set(sources) == ["A", "B"]
      }, "the server read both headers")
    let newcomer = try RawClient(port: server.port, timeout: 60)
    XCTAssertTrue(clients[2].waitForClose(), "the longest-idle connection makes room")
    newcomer.send(
      #"{"format":"tagscope-recording","version":1,"app":"C"}"# + "\n"
        + #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"in"}"# + "\n")
    let records = collector.waitForRecords(1)
    XCTAssertEqual(records.first?.source, "C", "the new connection is served")
    clients[0].send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"still"}"# + "\n")
    XCTAssertEqual(collector.waitForRecords(2).last?.source, "A", "the connections that spoke stay open")
    try await server.shutdown()
    XCTAssertEqual(server.statistics.evicted, 1, server.statistics.summary)
    XCTAssertNil(server.statistics.rejected[.tooManyConnections])
    let notices = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertTrue(notices.contains { $0.contains("closed the longest idle") }, "\(notices)")
  }

  func testHeldOpenIdleStreamsCannotLockOutNewClients() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.maximumConnections = 20
    let (server, collector) = try await startServer(configuration)
    var idle: [RawClient] = []
    for index in 0..<30 {
      let client = try RawClient(port: server.port, timeout: 1)
      client.send(#"{"format":"tagscope-recording","version":1,"app":"idle\#(index)"}"# + "\n")
      idle.append(client)
    }
    let reply = try httpRequest(
      port: server.port, path: "/v1/track", body: #"{"type":"track","userId":"u","event":"Through"}"#)
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(collector.waitForRecords(1).first?.name, "Through")
    try await server.shutdown()
    XCTAssertGreaterThanOrEqual(server.statistics.evicted, 10)
  }
}

/// Hostile JSON shapes through the HTTP endpoints.
final class HostilePayloadTests: XCTestCase {
  func testDeeplyNestedJSONGets400() async throws {
    let (server, _) = try await startServer()
    let deep = String(repeating: "[", count: 50_000)
    let reply = try httpRequest(port: server.port, path: "/v1/batch", body: #"{"batch":\#(deep)}"#)
    let after = try httpRequest(
      port: server.port, path: "/v1/track", body: #"{"type":"track","userId":"u","event":"still here"}"#)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 400)
    XCTAssertEqual(after?.status, 200)
  }

  func testProblemsAreReportedToTheConsumer() async throws {
    let (server, collector) = try await startServer()
    _ = try httpRequest(port: server.port, path: "/v1/track", body: "nope")
    try await server.shutdown()
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems, ["POST /v1/track → 400 (malformedJSON)"])
  }
}
