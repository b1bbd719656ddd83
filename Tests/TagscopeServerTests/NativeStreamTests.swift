import AnalyticsHub
import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// The native path: raw TCP clients streaming the recording format (header line, then records).
final class NativeStreamTests: XCTestCase {
  private func lines(app: String, device: String, count: Int, token: String? = nil) -> [UInt8] {
    var bytes: [UInt8] = []
    var header = RecordingHeader(
      app: app, device: device, started: Date(timeIntervalSince1970: 1_700_000_000))
    if let token { header.extra["token"] = .string(token) }
    RecordLineEncoder.appendLine(header, to: &bytes)
    for index in 1...count {
      let record = Record(
        seq: UInt64(index), time: Date(timeIntervalSince1970: 1_700_000_000 + Double(index)),
        kind: .userAction,
        name: "playPodcast", properties: ["index": .int(index), "device": .string(device)],
        outputs: [
          ProviderOutput(provider: "firebase", status: .sent, calls: [CallDescription(method: "logEvent")])
        ])
      RecordLineEncoder.appendLine(record, to: &bytes)
    }
    return bytes
  }

  func testTwoDevicesStreamConcurrentlyEachAsItsOwnSourceInOrder() async throws {
    let (server, collector) = try await startServer()
    let first = try RawClient(port: server.port)
    let second = try RawClient(port: server.port)
    let firstBytes = lines(app: "Podcasts", device: "iPhone 15", count: 500)
    let secondBytes = lines(app: "Podcasts", device: "Pixel 8", count: 500)
    // Interleave the two streams in uneven chunks, cutting lines in the middle.
    var offsets = (0, 0)
    while offsets.0 < firstBytes.count || offsets.1 < secondBytes.count {
      let end0 = min(firstBytes.count, offsets.0 + 777)
      first.send(Array(firstBytes[offsets.0..<end0]))
      offsets.0 = end0
      let end1 = min(secondBytes.count, offsets.1 + 1234)
      second.send(Array(secondBytes[offsets.1..<end1]))
      offsets.1 = end1
    }
    let records = collector.waitForRecords(1000)
    try await server.shutdown()
    XCTAssertEqual(records.count, 1000)
    for device in ["iPhone 15", "Pixel 8"] {
      let mine = records.filter { $0.source == "Podcasts@\(device)" }
      XCTAssertEqual(mine.map(\.seq), (1...500).map(UInt64.init), device)
      XCTAssertTrue(mine.allSatisfy { $0.properties["device"] == .string(device) })
    }
    let connected = collector.events.compactMap { event -> String? in
      if case .sourceConnected(let source, _) = event { return source }
      return nil
    }
    XCTAssertEqual(Set(connected), ["Podcasts@iPhone 15", "Podcasts@Pixel 8"])
    XCTAssertEqual(server.statistics.nativeStreams, 2)
    XCTAssertEqual(server.statistics.accepted, 1000)
  }

  func testHeaderWithoutAppOrDeviceUsesThePeerAddress() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(#"{"format":"tagscope-recording","version":1}"# + "\n")
    client.send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"podcasts"}"# + "\n")
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(records.count, 1)
    XCTAssertTrue(
      records.first?.source?.hasPrefix("127.0.0.1:") ?? false, "\(records.first?.source ?? "nil")")
  }

  func testTokenIsRequiredWhenConfigured() async throws {
    let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: "s3cret"))
    let intruder = try RawClient(port: server.port)
    intruder.send(lines(app: "Evil", device: "box", count: 3))
    let reply = String(decoding: intruder.readAll(), as: UTF8.self)
    XCTAssertTrue(reply.contains("token"), reply)
    let wrong = try RawClient(port: server.port)
    wrong.send(lines(app: "Evil", device: "box", count: 3, token: "guess"))
    XCTAssertTrue(wrong.waitForClose())
    let friend = try RawClient(port: server.port)
    friend.send(lines(app: "Podcasts", device: "iPad", count: 3, token: "s3cret"))
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.source), Array(repeating: "Podcasts@iPad", count: 3))
    XCTAssertEqual(server.statistics.rejected[.badToken], 2)
  }

  func testBadLinesAreReportedWithTheirNumberAndSkipped() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(#"{"format":"tagscope-recording","version":1,"app":"A","device":"D"}"# + "\n")
    client.send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"one"}"# + "\n")
    client.send("{not json\n")
    client.send(#"{"seq":3,"time":"2026-11-21T10:00:02.000Z","kind":"event","name":"three"}"# + "\n")
    client.send(#"{"dropped":5,"time":"2026-11-21T10:00:03.000Z","origin":"remoteSink"}"# + "\n")
    client.send(#"{"seq":9,"time":"2026-11-21T10:00:04.000Z","kind":"event","name":"nine"}"# + "\n")
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["one", "three", "nine"])
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertEqual(problems.count, 1)
    XCTAssertTrue(problems.first?.hasPrefix("line 3:") ?? false, "\(problems)")
    XCTAssertEqual(server.statistics.rejected[.badLine], 1)
    XCTAssertEqual(server.statistics.droppedByClients, 5)
  }

  func testStreamWithoutHeaderIsRefused() async throws {
    let (server, collector) = try await startServer()
    let client = try RawClient(port: server.port)
    client.send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"one"}"# + "\n")
    let reply = String(decoding: client.readAll(), as: UTF8.self)
    try await server.shutdown()
    XCTAssertTrue(reply.hasPrefix(#"{"error":"#), reply)
    XCTAssertTrue(collector.records.isEmpty)
    XCTAssertEqual(server.statistics.rejected[.badHeader], 1)
  }

  func testLastLineWithoutNewlineIsDeliveredAtClose() async throws {
    let (server, collector) = try await startServer()
    do {
      let client = try RawClient(port: server.port)
      client.send(#"{"format":"tagscope-recording","version":1,"app":"A"}"# + "\n")
      client.send(#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"last"}"#)
    }
    let records = collector.waitForRecords(1)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["last"])
  }

  func testOverlongLineClosesTheStream() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.maximumLineBytes = 1024
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.port)
    client.send(#"{"format":"tagscope-recording","version":1,"app":"A"}"# + "\n")
    client.send(String(repeating: "x", count: 4096))
    XCTAssertTrue(client.waitForClose())
    try await server.shutdown()
    XCTAssertEqual(server.statistics.rejected[.lineTooLong], 1)
  }

  func testIdleStreamIsClosedWhenAnIdleTimeoutIsSet() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.nativeIdleTimeout = .milliseconds(200)
    let (server, collector) = try await startServer(configuration)
    let client = try RawClient(port: server.port)
    client.send(lines(app: "Podcasts", device: "idle", count: 2))
    XCTAssertTrue(client.waitForClose())
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 2)
    XCTAssertEqual(server.statistics.timeouts[.nativeIdle], 1)
  }

  func testSilentNativeClientIsClosedAfterTheHeaderTimeout() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.headerTimeout = .milliseconds(200)
    let (server, _) = try await startServer(configuration)
    let client = try RawClient(port: server.port)
    client.send(#"{"format":"tagscope-"#)
    XCTAssertTrue(client.waitForClose())
    try await server.shutdown()
    XCTAssertEqual(server.statistics.timeouts[.nativeHeader], 1)
  }
}

/// Identical devices stay apart.
final class NativeSourceNameTests: XCTestCase {
  func testTwoConnectionsWithTheSameHeaderGetDistinctSources() async throws {
    let (server, collector) = try await startServer()
    let header = #"{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"sim"}"# + "\n"
    let record = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"podcasts"}"# + "\n"
    let first = try RawClient(port: server.port)
    first.send(header + record)
    collector.waitForRecords(1)
    let second = try RawClient(port: server.port)
    second.send(header + record)
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.source), ["Podcasts@sim", "Podcasts@sim #2"])
  }
}
