import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import XCTest

/// Every live path starts the one root, ``LiveSessionRoot``, and behaves alike: `listen` and
/// `proxy`, each in the debugger (the root observed as `ListenInterface` observes it) and headless
/// (``ListenRunner``), continue an existing `--record` recording (every earlier record kept, SDK
/// devices and retry memory rebuilt), warn about a public bind and give the query API the
/// recording; the demo continues its recording too.
final class LiveSessionRootTests: XCTestCase {
  /// The four ways a live session with a server runs.
  private enum Path: CaseIterable {
    case listenDebugger, listenHeadless, proxyDebugger, proxyHeadless

    var viaProxy: Bool { self == .proxyDebugger || self == .proxyHeadless }
    var headless: Bool { self == .listenHeadless || self == .proxyHeadless }
  }

  /// The ports a session answers on: listen's, and the proxy's when it runs one.
  private struct Ports: Sendable {
    var listen: Int
    var proxy: Int?
  }

  private var directory: URL!

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("root-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func options(_ path: Path, recording: URL, host: String = "127.0.0.1") -> ListenOptions {
    var options = ListenOptions(
      host: host, port: 0, recordPath: recording.path, headless: path.headless, quiet: true)
    if path.viaProxy {
      var proxy = ProxyConfiguration(
        port: 0, forward: false, authorityDirectory: directory.appendingPathComponent("ca"))
      proxy.allowsNoToken = true
      options.proxy = proxy
    }
    return options
  }

  /// Runs a session on `path` until `body` returns; its answer, the server's counters and the
  /// notices. The debugger path starts the root and observes it as `ListenInterface` does.
  private func run<Answer: Sendable>(
    _ path: Path, _ options: ListenOptions, plan: Plan? = nil,
    _ body: @Sendable (Ports) async throws -> Answer
  ) async throws -> (answer: Answer, statistics: ServerStatistics, notices: [String]) {
    let notices = LockedArray<String>()
    if path.headless {
      let ports = LockedArray<Int>()
      let (stopped, stop) = AsyncStream<Void>.makeStream()
      let proxyPorts = LockedArray<Int>()
      let runner = Task {
        try await ListenRunner.run(
          options, output: { _ in },
          notices: { notice in
            notices.append(notice)
            if let port = proxyPort(in: notice) { proxyPorts.append(port) }
          }, ready: { ports.append($0) }, stop: { for await _ in stopped { return } }, plan: plan)
      }
      guard eventually({ !ports.all.isEmpty }) else {
        runner.cancel()
        throw POSIXError(.ETIMEDOUT)
      }
      let answer: Answer
      do {
        answer = try await body(Ports(listen: ports.all[0], proxy: proxyPorts.all.first))
      } catch {
        stop.finish()
        _ = try? await runner.value
        throw error
      }
      stop.finish()
      return (answer, try await runner.value, notices.all)
    }
    let parts = try await LiveSessionRoot.start(
      LiveSessionOptions(listen: options, plan: plan),
      observer: LiveObserver(update: { _ in }, notice: { notices.append($0) }))
    let answer: Answer
    do {
      answer = try await body(Ports(listen: parts.port ?? 0, proxy: parts.server?.proxyPort))
    } catch {
      try? await parts.shutdown()
      throw error
    }
    try await parts.shutdown()
    return (answer, try XCTUnwrap(parts.statistics), notices.all)
  }

  /// A Segment message with its id, from device `aaaa` (analytics-swift's context keys).
  private static func message(_ id: String, _ call: String) -> String {
    #"{"messageId":"\#(id)",\#(call),"anonymousId":"anon-aaaa","context":{"app":{"name":"Shop"},"#
      + #""device":{"id":"aaaa-0000-1111","model":"iPhone15,2"},"os":{"name":"iOS"}}}"#
  }

  /// Posts a Segment batch to listen's port, or through the proxy (plain HTTP, not forwarded).
  private static func post(_ ports: Ports, _ messages: [String]) throws {
    let body = #"{"writeKey":"k","batch":[\#(messages.joined(separator: ","))]}"#
    let reply =
      if let proxy = ports.proxy {
        try httpRequest(
          port: proxy, path: "http://api.segment.io/v1/batch", headers: ["Host: api.segment.io"], body: body)
      } else {
        try httpRequest(port: ports.listen, path: "/v1/batch", body: body)
      }
    XCTAssertEqual(reply?.status, 200, reply?.body ?? "no reply")
  }

  private func assertContinues(_ path: Path) async throws {
    let file = directory.appendingPathComponent("\(path).jsonl")
    let first = try await run(path, options(path, recording: file)) { ports in
      XCTAssertEqual(ports.proxy != nil, path.viaProxy)
      try Self.post(
        ports,
        [
          Self.message("m-1", #""type":"screen","name":"Cart""#),
          Self.message("m-2", #""type":"track","event":"Add To Cart""#),
        ])
    }
    XCTAssertEqual(try recordedRecords(file).map(\.name), ["Cart", "Add To Cart"], "\(path)")
    XCTAssertEqual(first.statistics.retriesSkipped, 0, "\(path)")
    let second = try await run(path, options(path, recording: file)) { ports in
      // The SDK's retry of its last message (its reply lost when the session stopped), then a new one.
      try Self.post(ports, [Self.message("m-2", #""type":"track","event":"Add To Cart""#)])
      try Self.post(ports, [Self.message("m-3", #""type":"track","event":"Pay""#)])
    }
    XCTAssertTrue(
      second.notices.contains { $0.hasPrefix("continuing the recording \(file.path): 2 records") },
      "\(path): \(second.notices)")
    XCTAssertEqual(second.statistics.retriesSkipped, 1, "\(path): \(second.statistics.summary)")
    let records = try recordedRecords(file)
    XCTAssertEqual(
      records.map(\.name), ["Cart", "Add To Cart", "Pay"], "\(path): nothing lost, the retry once")
    XCTAssertEqual(records.last?.source, records.first?.source, "\(path): the same device, the same source")
    XCTAssertEqual(records.last?.context.screen, "Cart", "\(path): the device's screen from the recording")
  }

  func testListenInTheDebuggerContinuesAnExistingRecording() async throws {
    try await assertContinues(.listenDebugger)
  }

  func testHeadlessListenContinuesAnExistingRecording() async throws {
    try await assertContinues(.listenHeadless)
  }

  func testProxyInTheDebuggerContinuesAnExistingRecording() async throws {
    try await assertContinues(.proxyDebugger)
  }

  func testHeadlessProxyContinuesAnExistingRecording() async throws {
    try await assertContinues(.proxyHeadless)
  }

  /// A bind other machines may reach (here 127.0.0.2, which stays on this machine but is not the
  /// loopback address the warning trusts) is warned about on every path, before the start line.
  func testAPublicBindWarnsOnEveryPath() async throws {
    for path in Path.allCases {
      let file = directory.appendingPathComponent("bind-\(path).jsonl")
      let notices = try await run(path, options(path, recording: file, host: "127.0.0.2")) { _ in }.notices
      let warning = notices.firstIndex { $0.hasPrefix("warning: listening on 127.0.0.2") }
      let start = notices.firstIndex { $0.hasPrefix("listening on 127.0.0.2:") }
      XCTAssertNotNil(warning, "\(path): \(notices)")
      XCTAssertLessThan(warning ?? .max, start ?? .max, "\(path): \(notices)")
      XCTAssertEqual(
        notices.first { $0.hasPrefix("warning:") }?.contains("the proxy relays for anyone"), path.viaProxy,
        "\(path)")
    }
  }

  /// The query API names the recording in its summary and as the file of each violation it
  /// lists, on every path.
  func testTheQueryAPIKnowsTheRecordingOnEveryPath() async throws {
    let plan = try PlanLoader.load(yaml: QueryAPIHarness.plan, file: "shop.yaml")
    for path in Path.allCases {
      let file = directory.appendingPathComponent("query-\(path).jsonl")
      let (reply, summary) = try await run(path, options(path, recording: file), plan: plan) { ports in
        let native = try RawClient(port: ports.listen)
        native.send(#"{"format":"tagscope-recording","version":1,"app":"App","device":"sim"}"# + "\n")
        native.send(recordLine(1, "userAction", "addToCart") + "\n")
        _ = try Self.get(ports.listen, "wait?filter=\(queryValue("kind:action"))&timeout=60")
        return (try Self.get(ports.listen, "violations"), try Self.get(ports.listen, "summary"))
      }.answer
      let violations = reply.json["violations"] as? [[String: Any]] ?? []
      XCTAssertFalse(violations.isEmpty, "\(path): \(reply.body)")
      XCTAssertEqual(Set(violations.map { $0["file"] as? String }), [file.path], "\(path): \(reply.body)")
      XCTAssertEqual(summary.json["recording"] as? String, file.path, "\(path): \(summary.body)")
    }
  }

  /// The demo's debugger (the root without a server, fed by its inspector) continues an existing
  /// recording as listen does, instead of truncating it to a new header.
  func testTheDemoContinuesAnExistingRecording() async throws {
    let file = directory.appendingPathComponent("demo.jsonl")
    for run in 0..<2 {
      let notices = LockedArray<String>()
      let updates = LockedArray<Int>()
      let parts = try await LiveSessionRoot.start(
        LiveSessionOptions(
          listen: ListenOptions(recordPath: file.path), serves: false, app: "Podcasts",
          device: "tagscope demo"),
        observer: LiveObserver(update: { updates.append($0.events.count) }, notice: { notices.append($0) }))
      XCTAssertNil(parts.server)
      let records = screenRecords(2, first: UInt64(1 + 2 * run), source: "demo")
      parts.session.receive(records.map { SinkItem($0) })
      try await parts.shutdown()
      XCTAssertFalse(updates.all.isEmpty, "the debugger is woken by the session's updates")
      XCTAssertEqual(
        notices.all.contains { $0.hasPrefix("continuing the recording") }, run == 1, "\(notices.all)")
    }
    XCTAssertEqual(try recordedRecords(file).map(\.name), ["screen1", "screen2", "screen3", "screen4"])
    XCTAssertEqual(try RecordingReader(path: file.path).header.app, "Podcasts")
  }

  /// The headless demo, no live session, opens its recording as every live path does: an
  /// existing one is continued, not replaced.
  func testTheHeadlessDemoContinuesAnExistingRecording() throws {
    let file = directory.appendingPathComponent("demo-headless.jsonl")
    for run in 0..<2 {
      let notices = LockedArray<String>()
      let recorder = try LiveRecording.recorder(
        path: file.path, header: RecordingHeader(app: "Podcasts", device: "tagscope demo", started: Date())
      ) { notices.append($0) }
      recorder.receive(screenRecords(2, first: UInt64(1 + 2 * run), source: "demo").map { SinkItem($0) })
      recorder.close()
      XCTAssertEqual(
        notices.all.contains { $0.hasPrefix("continuing the recording \(file.path): 2 records") }, run == 1,
        "\(notices.all)")
    }
    XCTAssertEqual(try recordedRecords(file).map(\.name), ["screen1", "screen2", "screen3", "screen4"])
  }

  private static func get(_ port: Int, _ pathAndQuery: String) throws -> APIReply {
    let client = try RawClient(port: port)
    client.send("GET /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
    guard let (status, body) = client.readResponse() else { throw POSIXError(.ECONNRESET) }
    return APIReply(status: status, body: body)
  }
}

/// The proxy's port in the headless start notice (`…, proxy on HOST:PORT…`).
private func proxyPort(in notice: String) -> Int? {
  guard let range = notice.range(of: ", proxy on ") else { return nil }
  let rest = notice[range.upperBound...]
  guard let colon = rest.firstIndex(of: ":") else { return nil }
  return Int(rest[rest.index(after: colon)...].prefix(while: \.isNumber))
}
