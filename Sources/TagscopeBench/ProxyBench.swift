import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import TagscopeServer

/// Issue 32's figures, on loopback: Segment `/v1/batch` requests over kept-alive HTTPS through
/// `tagscope proxy` (CONNECT, TLS with the proxy's leaf, decoded into a live session that writes a
/// recording, forwarded over verified TLS to a local vendor) against the same requests sent
/// straight to that vendor; and a host the proxy does not intercept, tunnelled to the same vendor.
/// Latency p50/p99 on one connection, throughput on 8; medians of ``runs`` runs, each ratio taken
/// within one run. A proxied answer waits for the live session to write and fsync the request's
/// records (group commit), as every acknowledgement of `listen` does. Then ``MitmproxyBench``:
/// the same requests through tagscope's proxy and mitmproxy, each answering locally (issue 43).
enum ProxyBench {
  static let runs = 5
  static let latencyRequests = 1_000
  static let connections = 8
  static let requestsPerConnection = 400
  static let warmUpRequests = 20
  static let eventsPerBatch = 3

  /// One way to reach the vendor.
  struct Route {
    let name: String
    let port: Int
    let host: String
    let tunnelled: Bool
    let tls: NIOSSLContext
  }

  /// One run's figures for one route.
  struct Sample {
    var p50: Double
    var p99: Double
    var rate: Double
  }

  static func run(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("proxy-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let vendor = try BenchVendorServer.start(
      hosts: ["api.segment.io", "unlisted.example.org"], directory: directory.appendingPathComponent("vendor")
    )
    defer { vendor.shutdown() }
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, authorityDirectory: directory.appendingPathComponent("proxy-ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: vendor.port)],
      upstreamTrustRoots: vendor.authority.certificateFile.path)
    let running = try RecordingServer(
      recording: directory.appendingPathComponent("proxy.jsonl"), live: true, configuration: configuration)
    var stopped = false
    defer { if !stopped { try? running.stop() } }
    guard let proxyPort = running.server.proxyPort else { throw BenchFailure("the proxy did not start") }

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    defer { try? group.syncShutdownGracefully() }
    let vendorTLS = try clientTLS(trusting: vendor.authority.certificateFile.path)
    let proxyTLS = try clientTLS(trusting: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    let direct = Route(
      name: "direct", port: vendor.port, host: "api.segment.io", tunnelled: false, tls: vendorTLS)
    let proxied = Route(
      name: "proxy", port: proxyPort, host: "api.segment.io", tunnelled: true, tls: proxyTLS)
    let tunnel = Route(
      name: "tunnel", port: proxyPort, host: "unlisted.example.org", tunnelled: true, tls: vendorTLS)

    // Warm-up (the proxy mints its leaf, code paths are paged in), not counted.
    for route in [direct, proxied, tunnel] {
      let connection = try BenchHTTPSConnection.open(
        group: group, port: route.port, host: route.host, tunnelled: route.tunnelled, tls: route.tls,
        request: segmentBatch(host: route.host))
      _ = try connection.run(warmUpRequests).wait()
      connection.close()
    }

    var samples: [String: [Sample]] = [:]
    for _ in 0..<runs {
      for route in [direct, proxied, tunnel] {
        samples[route.name, default: []].append(
          try measure(route, group: group, request: segmentBatch(host: route.host)))
      }
    }
    let perRoute = warmUpRequests + runs * (latencyRequests + connections * requestsPerConnection)

    let expected = perRoute * eventsPerBatch
    try running.counter.wait(for: expected, timeout: 30)
    let recorded = running.counter.value
    try running.stop()
    stopped = true
    let forwarded = vendor.answered.value

    addFigures(samples, to: &report)
    report.add(
      "proxy.segment.lost", Double(expected - recorded), unit: "events",
      baseline: "events the proxy acknowledged (\(expected)) − records the live session stored", atMost: 0)
    report.add(
      "proxy.vendor.missing", Double(3 * perRoute - forwarded), unit: "requests",
      baseline: "requests sent on the three routes − requests the vendor answered", atMost: 0)
    try MitmproxyBench.run(&report)
  }

  private static func addFigures(_ samples: [String: [Sample]], to report: inout BenchReport) {
    let direct = samples["direct"] ?? []
    let how =
      "1 kept-alive HTTPS connection × \(latencyRequests) sequential POST /v1/batch (\(eventsPerBatch) events), median of \(runs) runs"
    let rateHow =
      "\(connections) kept-alive HTTPS connections × \(requestsPerConnection) POST /v1/batch, median of \(runs) runs"
    report.add(
      "proxy.direct.p50", median(direct.map(\.p50)), unit: "ms", baseline: "straight to the vendor; " + how)
    report.add("proxy.direct.p99", median(direct.map(\.p99)), unit: "ms", baseline: "same requests")
    report.add(
      "proxy.direct.rate", median(direct.map(\.rate)), unit: "requests/s",
      baseline: "straight to the vendor; " + rateHow)
    for (name, label) in [
      ("proxy", "through the proxy: CONNECT api.segment.io, proxy's leaf, decoded, recorded, forwarded"),
      ("tunnel", "CONNECT unlisted.example.org: tunnelled to the vendor, TLS end to end"),
    ] {
      let mine = samples[name] ?? []
      let prefix = name == "proxy" ? "proxy.segment" : "proxy.tunnel"
      report.add("\(prefix).p50", median(mine.map(\.p50)), unit: "ms", baseline: label)
      report.add("\(prefix).p99", median(mine.map(\.p99)), unit: "ms", baseline: "same requests")
      report.add(
        "\(prefix).p50.ratio", median(zip(mine, direct).map { $0.p50 / $1.p50 }), unit: "x",
        baseline: "p50 ÷ direct p50, same run")
      report.add(
        "\(prefix).p99.ratio", median(zip(mine, direct).map { $0.p99 / $1.p99 }), unit: "x",
        baseline: "p99 ÷ direct p99, same run")
      report.add("\(prefix).rate", median(mine.map(\.rate)), unit: "requests/s", baseline: rateHow)
      report.add(
        "\(prefix).rate.ratio", median(zip(mine, direct).map { $0.rate / $1.rate }), unit: "x",
        baseline: "requests/s ÷ direct requests/s, same run")
    }
  }

  /// Latency on one connection, then throughput on ``connections`` (opened before the clock starts).
  static func measure(_ route: Route, group: any EventLoopGroup, request: BenchRequest) throws
    -> Sample
  {
    let single = try BenchHTTPSConnection.open(
      group: group, port: route.port, host: route.host, tunnelled: route.tunnelled, tls: route.tls,
      request: request)
    let times = try single.run(latencyRequests).wait().sorted()
    single.close()
    let pool = try (0..<connections).map { _ in
      try BenchHTTPSConnection.open(
        group: group, port: route.port, host: route.host, tunnelled: route.tunnelled, tls: route.tls,
        request: request)
    }
    defer { for connection in pool { connection.close() } }
    let seconds = try measureSeconds {
      let all = pool.map { $0.run(requestsPerConnection) }
      _ = try EventLoopFuture.whenAllSucceed(all, on: group.any()).wait()
    }
    return Sample(
      p50: Double(times[times.count / 2]) / 1e6, p99: Double(times[times.count * 99 / 100]) / 1e6,
      rate: Double(connections * requestsPerConnection) / seconds)
  }

  static func clientTLS(trusting file: String) throws -> NIOSSLContext {
    var tls = TLSConfiguration.makeClientConfiguration()
    tls.trustRoots = .file(file)
    tls.applicationProtocols = ["http/1.1"]
    return try NIOSSLContext(configuration: tls)
  }

  /// A `POST /v1/batch` as analytics-python sends it (segmentio/analytics-python,
  /// segment/analytics/request.py: JSON body with `batch`, `sentAt`, `writeKey`; Content-Type,
  /// User-Agent, Basic authorization with the write key), plain JSON, with three track events.
  static func segmentBatch(host: String) -> BenchRequest {
    let events = (0..<eventsPerBatch).map { index in
      #"{"type":"track","event":"Play Podcast","userId":"user-42","messageId":"bench-\#(index)","#
        + #""timestamp":"2026-11-25T10:00:04.210+00:00","properties":{"podcast_title":"Swift by Sundell","#
        + #""podcast_duration":1830},"context":{"library":{"name":"analytics-python","version":"2.3.4"}}}"#
    }
    let body = Array(
      (#"{"batch":["# + events.joined(separator: ",")
        + #"],"sentAt":"2026-11-25T10:00:05.000+00:00","writeKey":"bench-key"}"#).utf8)
    var headers = HTTPHeaders()
    headers.add(name: "Host", value: host)
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "User-Agent", value: "analytics-python/2.3.4")
    headers.add(name: "Authorization", value: "Basic " + Data("bench-key:".utf8).base64EncodedString())
    headers.add(name: "Content-Length", value: String(body.count))
    return BenchRequest(
      head: HTTPRequestHead(version: .http1_1, method: .POST, uri: "/v1/batch", headers: headers), body: body)
  }

  static func median(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return .nan }
    return values.sorted()[values.count / 2]
  }
}
