import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import TagscopeServer

/// Issue 45's peer figure: Firebase's own uploads through `tagscope proxy` and through `mitmdump`,
/// as ``MitmproxyBench`` does for Segment. The re-encoded real uploads of
/// `Tests/Fixtures/firebase-upload` (the 2020 iOS one gzipped here), each sent as Android sends it,
/// `POST https://app-measurement.com/a` with `Content-Encoding: gzip`, on kept-alive HTTPS through
/// `CONNECT app-measurement.com:443`, each proxy's certificate authority trusted from its file.
/// Tagscope answers locally (no forwarding) after gunzipping and decoding each upload into records,
/// without and with a written recording (`fsync`ed before each answer, group commit); mitmproxy's
/// addon (`scripts/bench-mitm-addon.py`) answers `204` locally, without and with each body gunzipped
/// and appended in base64 to a file and flushed, not `fsync`ed. Medians of ``runs`` runs, the four
/// routes taken in turn in each run, each ratio taken within one run.
enum FirebaseMitmproxyBench {
  static let runs = 3
  static let latencyRequests = 500
  static let connections = 8
  static let requestsPerConnection = 250
  static let warmUpRequests = 20
  static let host = "app-measurement.com"

  /// One proxy under test.
  private struct Side {
    let name: String
    let label: String
    let port: Int
    let tls: NIOSSLContext
  }

  static func run(_ report: inout BenchReport) throws {
    let uploads = try requests()
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "mitm-firebase-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let version = MitmproxyPeer.version()

    let peers = try ProxyPeers.start(in: directory)
    defer { peers.stop() }
    let (plain, recorded, mitm, mitmRecorded) = (peers.plain, peers.recorded, peers.mitm, peers.mitmRecorded)

    let sides = [
      Side(
        name: "local", label: "tagscope proxy answering locally, uploads decoded to records, no recording",
        port: plain.port, tls: try ProxyBench.clientTLS(trusting: plain.authority.path)),
      Side(
        name: "mitmproxy", label: "\(version) (mitmdump, addon answering 204 locally), nothing written",
        port: mitm.port, tls: try ProxyBench.clientTLS(trusting: mitm.certificateFile.path)),
      Side(
        name: "local.recorded",
        label: "tagscope proxy answering locally, each answer after its records are written and fsynced",
        port: recorded.port, tls: try ProxyBench.clientTLS(trusting: recorded.authority.path)),
      Side(
        name: "mitmproxy.recorded",
        label: "\(version), each body gunzipped, appended in base64 to a file and flushed",
        port: mitmRecorded.port, tls: try ProxyBench.clientTLS(trusting: mitmRecorded.certificateFile.path)),
    ]

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    defer { try? group.syncShutdownGracefully() }
    for side in sides {
      for upload in uploads {
        let connection = try open(side, group: group, request: upload.request)
        _ = try connection.run(warmUpRequests).wait()
        connection.close()
      }
    }
    var samples: [String: [ProxyBench.Sample]] = [:]
    for _ in 0..<runs {
      for side in sides {
        samples[side.name, default: []].append(try measure(side, group: group, uploads: uploads))
      }
    }

    // Per side: the warm-up sends each upload warmUpRequests times; each run sends the first
    // upload latencyRequests times and upload i % count on connection i requestsPerConnection times.
    let sentPerRun = (0..<connections).map { uploads[$0 % uploads.count] }
    let perSide =
      warmUpRequests * uploads.count + runs * (latencyRequests + connections * requestsPerConnection)
    let records =
      warmUpRequests * uploads.reduce(0) { $0 + $1.records }
      + runs
      * (latencyRequests * uploads[0].records + requestsPerConnection
        * sentPerRun.reduce(0) { $0 + $1.records })
    try plain.counter.wait(for: records, timeout: 60)
    try recorded.counter.wait(for: records, timeout: 60)
    plain.stop()
    recorded.stop()
    mitmRecorded.stop()
    let tagscopeStored = try recorded.recording.map(ServerBench.countLines).map { $0 - 1 } ?? 0
    let mitmStored = try mitmRecorded.recording.map(ServerBench.countLines) ?? 0

    addFigures(samples, sides: sides, uploads: uploads, to: &report)
    report.add(
      "proxy.firebase.local.recorded.lost", Double(records - tagscopeStored), unit: "records",
      baseline:
        "records of the uploads tagscope answered (\(records)) − lines after the header of its recording",
      atMost: 0)
    report.add(
      "proxy.firebase.mitmproxy.recorded.lost", Double(perSide - mitmStored), unit: "requests",
      baseline: "uploads mitmproxy answered (\(perSide)) − lines in its file", atMost: 0)
  }

  /// One upload as sent, and the records it makes.
  struct Upload {
    var name: String
    var request: BenchRequest
    var records: Int
  }

  /// The fixtures as Android sends them: gzip, `Content-Encoding: gzip`, form content type.
  static func requests() throws -> [Upload] {
    let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Tests/Fixtures/firebase-upload")
    var uploads: [Upload] = []
    for name in ["android-2024.pb.gz", "android-2021.pb.gz", "ios-2023-first-open.pb.gz", "ios-2020-raw.pb"] {
      let bytes = Array(try Data(contentsOf: fixtures.appendingPathComponent(name)))
      guard let body = bytes.starts(with: [0x1f, 0x8b]) ? bytes : AmplificationBench.gzip(bytes) else {
        throw BenchFailure("cannot gzip \(name) (no gzip on PATH)")
      }
      guard let records = FirebaseUploadDecoding.recordCount(body), records > 0 else {
        throw BenchFailure("\(name) makes no records")
      }
      var headers = HTTPHeaders()
      headers.add(name: "Host", value: host)
      headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
      headers.add(name: "Content-Encoding", value: "gzip")
      headers.add(name: "Content-Length", value: String(body.count))
      let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/a", headers: headers)
      uploads.append(Upload(name: name, request: BenchRequest(head: head, body: body), records: records))
    }
    return uploads
  }

  private static func open(_ side: Side, group: any EventLoopGroup, request: BenchRequest) throws
    -> BenchHTTPSConnection
  {
    try BenchHTTPSConnection.open(
      group: group, port: side.port, host: host, tunnelled: true, tls: side.tls, request: request)
  }

  /// Latency on one connection (the first upload), then throughput on ``connections``, connection
  /// `i` sending upload `i % count` (opened before the clock starts).
  private static func measure(_ side: Side, group: any EventLoopGroup, uploads: [Upload]) throws
    -> ProxyBench.Sample
  {
    let single = try open(side, group: group, request: uploads[0].request)
    let times = try single.run(latencyRequests).wait().sorted()
    single.close()
    let pool = try (0..<connections).map {
      try open(side, group: group, request: uploads[$0 % uploads.count].request)
    }
    defer { for connection in pool { connection.close() } }
    let seconds = try measureSeconds {
      let all = pool.map { $0.run(requestsPerConnection) }
      _ = try EventLoopFuture.whenAllSucceed(all, on: group.any()).wait()
    }
    return ProxyBench.Sample(
      p50: Double(times[times.count / 2]) / 1e6, p99: Double(times[times.count * 99 / 100]) / 1e6,
      rate: Double(connections * requestsPerConnection) / seconds)
  }

  private static func addFigures(
    _ samples: [String: [ProxyBench.Sample]], sides: [Side], uploads: [Upload], to report: inout BenchReport
  ) {
    let sizes = uploads.map { "\($0.name) \($0.request.body.count) B, \($0.records) records" }
      .joined(separator: "; ")
    let how =
      "\(connections) kept-alive HTTPS connections × \(requestsPerConnection) POST /a (gzip) through CONNECT, "
      + "median of \(runs) runs (\(sizes))"
    for side in sides {
      let mine = samples[side.name] ?? []
      report.add(
        "proxy.firebase.\(side.name).uploadsPerSecond", ProxyBench.median(mine.map(\.rate)),
        unit: "uploads/s",
        baseline: side.label + "; " + how)
      report.add(
        "proxy.firebase.\(side.name).p50", ProxyBench.median(mine.map(\.p50)), unit: "ms",
        baseline: "1 connection × \(latencyRequests) sequential uploads of \(uploads[0].name)")
    }
    for suffix in ["", ".recorded"] {
      let tagscope = samples["local" + suffix] ?? []
      let mitm = samples["mitmproxy" + suffix] ?? []
      let rate = ProxyBench.median(tagscope.map(\.rate))
      let peer = ProxyBench.median(mitm.map(\.rate))
      report.add(
        "proxy.firebase.mitmproxy\(suffix).ratio",
        ProxyBench.median(zip(tagscope, mitm).map { $0.rate / $1.rate }), unit: "x",
        baseline:
          "tagscope \(BenchReport.format(rate)) ÷ mitmproxy \(BenchReport.format(peer)) uploads/s (medians), ratio taken in each run; target 5×",
        atLeast: 5)
      report.add(
        "proxy.firebase.mitmproxy\(suffix).p50.ratio",
        ProxyBench.median(zip(mitm, tagscope).map { $0.p50 / $1.p50 }), unit: "x",
        baseline: "mitmproxy p50 ÷ tagscope p50, same run")
    }
  }
}
