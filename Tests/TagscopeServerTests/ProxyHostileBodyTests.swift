import Foundation
import NIOCore
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31 through `tagscope proxy`: a hostile body sent to an SDK host through the proxy is
/// treated as `listen` treats it — the same lazy decoding delivered in slices, the endpoint's body
/// limit (declared, chunked, decompressed) answered at once with the same status and vendor error
/// shape, `415` for an unknown encoding, `503` + `Retry-After` when the store is slower than the
/// request timeout — and what the proxy refuses itself is never forwarded. Real servers on
/// loopback; the vendor is a closed port, so a forwarded request shows as `502` and an upstream
/// failure.
final class ProxyHostileBodyTests: XCTestCase {
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-hostile-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  private func configuration(
    requestTimeout: TimeAmount = .seconds(30), keepAliveTimeout: TimeAmount = .seconds(60)
  ) async throws -> ListenConfiguration {
    let closed = closedPort
    var configuration = ListenConfiguration(
      port: 0, requestTimeout: requestTimeout, keepAliveTimeout: keepAliveTimeout)
    configuration.host = "127.0.0.1"
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: closed)])
    return configuration
  }

  /// `raw` (a request in absolute form to `host`) sent to the proxy and, in origin form, to
  /// listen's own port: both statuses and bodies.
  private func bothReplies(_ server: ListenServer, host: String, _ raw: (String) -> [UInt8]) throws -> (
    proxy: (status: Int, body: String)?, listen: (status: Int, body: String)?
  ) {
    let proxied = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    proxied.send(raw("http://\(host)"))
    let direct = try RawClient(port: server.port, timeout: 20)
    direct.send(raw(""))
    return (proxied.readResponse(), direct.readResponse())
  }

  private func problems(_ collector: Collector) -> [String] {
    collector.events.compactMap { event in
      if case .problem(_, let message) = event { return message }
      return nil
    }
  }

  // MARK: Lazy decoding

  /// Every PostHog path (`/batch` shared with Amplitude, `/e`, `/capture`, `/i/v0/e`, gzip,
  /// form-encoded base64) takes listen's lazy path: a batch of many tiny events is delivered off
  /// the event loop a slice at a time (it used to be decoded whole and delivered at once), every
  /// event recorded in order, then forwarded.
  func testEveryPostHogPathDeliversALargeBatchInSlicesAsListenDoes() async throws {
    let count = BulkDelivery.sliceSize + 52
    let json =
      #"{"api_key":"k","batch":["# + (0..<count).map { #"{"event":"e\#($0)"}"# }.joined(separator: ",") + "]}"
    let base64 = Data(json.utf8).base64EncodedString()
      .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "/", with: "%2F")
      .replacingOccurrences(of: "=", with: "%3D")
    let cases: [(path: String, contentType: String, encoding: String?, body: [UInt8])] = [
      ("/batch/", "application/json", nil, Array(json.utf8)),
      ("/e/", "application/json", nil, Array(json.utf8)),
      ("/capture/", "application/json", nil, Array(json.utf8)),
      ("/i/v0/e/", "application/json", nil, Array(json.utf8)),
      ("/batch/", "application/json", "gzip", try gzip(Array(json.utf8))),
      ("/e/", "application/x-www-form-urlencoded", nil, Array("data=\(base64)".utf8)),
    ]
    for item in cases {
      XCTAssertLessThan(item.body.count, RequestPolicy.offloadBytes, "a body the event loop would take")
      let (server, collector) = try await startServer(try await configuration())
      let encoding = item.encoding.map { "Content-Encoding: \($0)\r\n" } ?? ""
      let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
      client.send(
        Array(
          ("POST http://us.i.posthog.com\(item.path) HTTP/1.1\r\nHost: us.i.posthog.com\r\n"
            + "Content-Type: \(item.contentType)\r\n\(encoding)Content-Length: \(item.body.count)\r\n\r\n")
            .utf8)
          + item.body)
      let label = "\(item.path) \(item.contentType) \(item.encoding ?? "identity")"
      XCTAssertEqual(client.readResponse()?.status, 502, "\(label): forwarded once stored")
      let records = collector.waitForRecords(count)
      XCTAssertEqual(records.map(\.name), (0..<count).map { "e\($0)" }, label)
      let deliveries = collector.events.compactMap { event -> Int? in
        if case .records(let records) = event { return records.count }
        return nil
      }
      // Small events: slices of as many as the body has bytesPerSliceEvent bytes.
      let size = BulkDelivery.sliceSize(bytes: json.utf8.count)
      XCTAssertLessThan(size, BulkDelivery.sliceSize)
      let slices = stride(from: 0, to: count, by: size).map { min(size, count - $0) }
      XCTAssertEqual(deliveries, slices, "\(label): delivered a slice at a time")
      XCTAssertEqual(server.statistics.upstreamFailures, 1, label)
      try await server.shutdown()
    }
  }

  // MARK: Limits

  /// Listen's per-endpoint limits: a declared length past Segment's 32 KB per call, a chunk past
  /// it, a chunk size past 64 bits on PostHog's path are answered at once with the vendor's status
  /// and error shape, exactly as listen answers them, counted and reported, and not forwarded; the
  /// same chunked body to a host that is no SDK's is forwarded as it was.
  func testPerEndpointLimitsAreAnsweredAtOnceAsListenAnswers() async throws {
    let (server, collector) = try await startServer(try await configuration())
    let declared = try bothReplies(server, host: "api.segment.io") { prefix in
      Array(
        ("POST \(prefix)/v1/track HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(SegmentEndpoint.messageLimit + 1)\r\n\r\n").utf8)
    }
    XCTAssertEqual(declared.proxy?.status, 400)
    XCTAssertTrue(
      declared.proxy?.body.contains("request_too_large") ?? false, "\(String(describing: declared))")
    XCTAssertEqual(declared.proxy?.status, declared.listen?.status)
    XCTAssertEqual(declared.proxy?.body, declared.listen?.body)

    let chunk = try bothReplies(server, host: "api.segment.io") { prefix in
      Array(
        ("POST \(prefix)/v1/track HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\n"
          + String(SegmentEndpoint.messageLimit + 1, radix: 16) + "\r\n").utf8)
    }
    XCTAssertEqual(chunk.proxy?.status, 400, "answered at once, not waited for")
    XCTAssertEqual(chunk.proxy?.body, chunk.listen?.body)

    let huge = try bothReplies(server, host: "us.i.posthog.com") { prefix in
      Array(
        ("POST \(prefix)/batch/ HTTP/1.1\r\nHost: us.i.posthog.com\r\nContent-Type: application/json\r\n"
          + "Transfer-Encoding: chunked\r\n\r\nffffffffffffffff\r\n").utf8)
    }
    XCTAssertEqual(huge.proxy?.status, 413)
    XCTAssertEqual(huge.proxy?.body, huge.listen?.body)
    XCTAssertTrue(huge.proxy?.body.contains("request_too_large") ?? false)

    XCTAssertEqual(server.statistics.proxiedRequests, 0)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, "nothing forwarded")
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 6, "three by the proxy, three by listen")
    XCTAssertTrue(eventually { self.problems(collector).filter { $0.contains("not forwarded") }.count == 3 })

    // Not an SDK host: the same chunked body is only the server's limit's business.
    let size = SegmentEndpoint.messageLimit + 1
    let other = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    other.send(
      "POST http://example.org/v1/track HTTP/1.1\r\nHost: example.org\r\nTransfer-Encoding: chunked\r\n\r\n"
        + String(size, radix: 16) + "\r\n" + String(repeating: "x", count: size) + "\r\n0\r\n\r\n")
    XCTAssertEqual(other.readResponse()?.status, 502, "forwarded")
    try await server.shutdown()
  }

  /// Encodings as listen treats them: `br` (not decompressed) gets `415`, a gzip bomb past the
  /// endpoint's limit once decompressed the endpoint's answer to a body too large, a body that
  /// does not decompress `400` — each as listen answers it, and not forwarded.
  func testEncodingsAndDecompressionBombsAreAnsweredAsListenAnswers() async throws {
    let (server, _) = try await startServer(try await configuration())
    let bomb = try gzip(Array(repeating: UInt8(ascii: " "), count: 4 * SegmentEndpoint.messageLimit))
    XCTAssertLessThan(bomb.count, SegmentEndpoint.messageLimit)
    let cases: [(encoding: String, body: [UInt8], status: Int)] = [
      ("br", Array(#"{"type":"track","userId":"u","event":"E"}"#.utf8), 415),
      ("gzip", bomb, 400),
      ("gzip", Array("not gzip at all".utf8), 400),
    ]
    for item in cases {
      let replies = try bothReplies(server, host: "api.segment.io") { prefix in
        Array(
          ("POST \(prefix)/v1/track HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
            + "Content-Encoding: \(item.encoding)\r\nContent-Length: \(item.body.count)\r\n\r\n").utf8)
          + item.body
      }
      XCTAssertEqual(replies.proxy?.status, item.status, item.encoding)
      XCTAssertEqual(replies.proxy?.status, replies.listen?.status, item.encoding)
      XCTAssertEqual(replies.proxy?.body, replies.listen?.body, item.encoding)
    }
    XCTAssertEqual(server.statistics.upstreamFailures, 0, "nothing forwarded")
    XCTAssertEqual(server.statistics.rejected[.badEncoding], 4)
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 2)
    try await server.shutdown()
  }

  /// An event-count limit (Mixpanel's 2,000 messages per request) is a limit too: answered as
  /// listen answers it, not forwarded. A body whose content the decoder refuses (malformed JSON) is
  /// forwarded as it was, the vendor's answer being the one the SDK acts on, and reported.
  func testEventLimitsAreAnsweredLocallyAndMalformedBodiesForwarded() async throws {
    let (server, collector) = try await startServer(try await configuration())
    let messages = (0...2_000).map { #"{"event":"e\#($0)","properties":{"token":"t"}}"# }
    let body = Array(("[" + messages.joined(separator: ",") + "]").utf8)
    let replies = try bothReplies(server, host: "api.mixpanel.com") { prefix in
      Array(
        ("POST \(prefix)/track HTTP/1.1\r\nHost: api.mixpanel.com\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.count)\r\n\r\n").utf8) + body
    }
    XCTAssertEqual(replies.proxy?.status, replies.listen?.status)
    XCTAssertEqual(replies.proxy?.body, replies.listen?.body)
    XCTAssertEqual(server.statistics.rejected[.tooManyEvents], 2)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, "not forwarded")

    let malformed = try httpRequest(
      port: server.proxyPort ?? 0, path: "http://api.segment.io/v1/track", headers: ["Host: api.segment.io"],
      body: "{not json")
    XCTAssertEqual(malformed?.status, 502, "forwarded to the (closed) vendor")
    XCTAssertEqual(server.statistics.upstreamFailures, 1)
    XCTAssertTrue(eventually { self.problems(collector).contains { $0.contains("forwarded as it was") } })
    XCTAssertEqual(collector.records.count, 0)
    try await server.shutdown()
  }

  /// A connection kept alive and left idle is closed after listen's keep-alive timeout, as listen
  /// closes it, rather than holding one of the proxy's connection slots for ever.
  func testAnIdleKeptAliveConnectionIsClosedAsListenClosesIt() async throws {
    let (server, _) = try await startServer(
      try await configuration(keepAliveTimeout: .milliseconds(300)))
    let client = try RawClient(port: server.proxyPort ?? 0, timeout: 20)
    let body = "[" + (0...2_000).map { _ in #"{"event":"e"}"# }.joined(separator: ",") + "]"
    client.send(
      "POST http://api.mixpanel.com/track HTTP/1.1\r\nHost: api.mixpanel.com\r\n"
        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertNotNil(client.readResponse())
    XCTAssertTrue(client.waitForClose(), "closed once idle")
    XCTAssertEqual(server.statistics.timeouts[.keepAlive], 1)
    try await server.shutdown()
  }

  // MARK: Durable answers

  /// A store slower than the request timeout: the SDK gets `503` + `Retry-After: 1` and a problem
  /// line, as from listen, and the request is not forwarded (the SDK's retry is: the vendor gets
  /// it once); its records are still stored once the store takes them.
  func testAStoreSlowerThanTheRequestTimeoutAnswers503ForwardsNothingAndRecordsTheRetryOnce() async throws {
    let ingest = GatedIngest()
    let server = try await ListenServer.start(
      configuration: try await configuration(requestTimeout: .seconds(1)), ingest: ingest)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Slow","messageId":"m-1"}"#
    let request =
      "POST http://api.segment.io/v1/track HTTP/1.1\r\nHost: api.segment.io\r\n"
      + "Content-Type: application/json\r\nConnection: close\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
    let (status, headers) = try RawClient.exchange(server.proxyPort ?? 0, request)
    XCTAssertEqual(status, 503)
    XCTAssertEqual(headers["retry-after"], "1")
    XCTAssertEqual(server.statistics.timeouts[.request], 1)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, "not forwarded")
    XCTAssertTrue(
      ingest.problems.contains { $0.contains("not stored within the request timeout") }, "\(ingest.problems)")
    ingest.open()
    XCTAssertEqual(ingest.recordNames, ["Slow"], "stored once")
    XCTAssertEqual(server.statistics.upstreamFailures, 0, "still not forwarded once stored")
    // The SDK's retry is forwarded (the vendor here is a closed port) and not recorded again.
    let (retried, _) = try RawClient.exchange(server.proxyPort ?? 0, request)
    XCTAssertEqual(retried, 502)
    XCTAssertEqual(server.statistics.upstreamFailures, 1, "the retry is forwarded")
    XCTAssertEqual(server.statistics.retriesSkipped, 1)
    XCTAssertEqual(ingest.recordNames, ["Slow"], "the retry is not recorded again")
    try await server.shutdown()
  }
}

/// An ingest whose store waits until ``open()``: ``whenStored(_:)`` calls back only then.
private final class GatedIngest: ListenIngest, @unchecked Sendable {
  private let lock = NSLock()
  private var events: [ListenEvent] = []
  private var waiting: [@Sendable () -> Void] = []
  private var isOpen = false

  func deliver(_ event: ListenEvent) { lock.withLock { events.append(event) } }

  var hasRoom: Bool { true }

  func whenRoom(_ resume: @escaping @Sendable () -> Void) { resume() }

  func whenStored(_ done: @escaping @Sendable () -> Void) {
    let now = lock.withLock { () -> Bool in
      if !isOpen { waiting.append(done) }
      return isOpen
    }
    if now { done() }
  }

  func open() {
    let callbacks = lock.withLock { () -> [@Sendable () -> Void] in
      isOpen = true
      defer { waiting = [] }
      return waiting
    }
    for callback in callbacks { callback() }
  }

  var recordNames: [String] {
    lock.withLock {
      events.flatMap { event -> [String] in
        if case .records(let records) = event { return records.map(\.name) }
        return []
      }
    }
  }

  var problems: [String] {
    lock.withLock {
      events.compactMap { event in
        if case .problem(_, let message) = event { return message }
        return nil
      }
    }
  }
}
