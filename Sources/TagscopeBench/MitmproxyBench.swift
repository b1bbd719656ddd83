import Foundation
import NIOCore
import NIOPosix
import NIOSSL
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer

/// Issue 43's peer figure: the same Segment `/v1/batch` requests as ``ProxyBench`` (same client,
/// kept-alive HTTPS through `CONNECT api.segment.io:443`, each proxy's certificate authority
/// trusted from its file) through `tagscope proxy` and through `mitmdump`, each answering locally
/// (tagscope without forwarding, mitmproxy from `scripts/bench-mitm-addon.py`), without and with
/// a written recording. Tagscope's recording is its live session's (decoded records, `fsync`ed
/// before each answer, group commit); mitmproxy's is each body appended to a JSON Lines file and
/// flushed, not `fsync`ed. Medians of ``runs`` runs, the four routes taken in turn in each run,
/// each ratio taken within one run.
enum MitmproxyBench {
  static let runs = 5

  /// One proxy under test.
  private struct Side {
    let name: String
    let label: String
    let route: ProxyBench.Route
  }

  static func run(_ report: inout BenchReport) throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("mitm-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let version = MitmproxyPeer.version()

    let peers = try ProxyPeers.start(in: directory)
    defer { peers.stop() }
    let (plain, recorded, mitm, mitmRecorded) = (peers.plain, peers.recorded, peers.mitm, peers.mitmRecorded)

    let host = "api.segment.io"
    func route(_ name: String, _ port: Int, _ authority: URL) throws -> ProxyBench.Route {
      ProxyBench.Route(
        name: name, port: port, host: host, tunnelled: true,
        tls: try ProxyBench.clientTLS(trusting: authority.path))
    }
    let sides = [
      Side(
        name: "local", label: "tagscope proxy answering locally, records decoded, no recording",
        route: try route("local", plain.port, plain.authority)),
      Side(
        name: "mitmproxy", label: "\(version) (mitmdump, addon answering locally), nothing written",
        route: try route("mitmproxy", mitm.port, mitm.certificateFile)),
      Side(
        name: "local.recorded",
        label: "tagscope proxy answering locally, each answer after its records are written and fsynced",
        route: try route("local.recorded", recorded.port, recorded.authority)),
      Side(
        name: "mitmproxy.recorded", label: "\(version), each body appended to a JSON Lines file and flushed",
        route: try route("mitmproxy.recorded", mitmRecorded.port, mitmRecorded.certificateFile)),
    ]

    let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
    defer { try? group.syncShutdownGracefully() }
    let request = ProxyBench.segmentBatch(host: host)
    for side in sides {
      let connection = try BenchHTTPSConnection.open(
        group: group, port: side.route.port, host: host, tunnelled: true, tls: side.route.tls,
        request: request)
      _ = try connection.run(ProxyBench.warmUpRequests).wait()
      connection.close()
    }
    var samples: [String: [ProxyBench.Sample]] = [:]
    for _ in 0..<runs {
      for side in sides {
        samples[side.name, default: []].append(
          try ProxyBench.measure(side.route, group: group, request: request))
      }
    }

    let perSide =
      ProxyBench.warmUpRequests + runs
      * (ProxyBench.latencyRequests + ProxyBench.connections * ProxyBench.requestsPerConnection)
    let events = perSide * ProxyBench.eventsPerBatch
    try plain.counter.wait(for: events, timeout: 30)
    try recorded.counter.wait(for: events, timeout: 30)
    plain.stop()
    recorded.stop()
    mitmRecorded.stop()
    let tagscopeStored = try recorded.recording.map(ServerBench.countLines).map { $0 - 1 } ?? 0
    let mitmStored = try mitmRecorded.recording.map(ServerBench.countLines) ?? 0

    addFigures(samples, sides: sides, to: &report)
    report.add(
      "proxy.segment.local.recorded.lost", Double(events - tagscopeStored), unit: "events",
      baseline: "events tagscope answered (\(events)) − lines after the header of its recording", atMost: 0)
    report.add(
      "proxy.segment.mitmproxy.recorded.lost", Double(perSide - mitmStored), unit: "requests",
      baseline: "batches mitmproxy answered (\(perSide)) − lines in its recording", atMost: 0)
  }

  private static func addFigures(
    _ samples: [String: [ProxyBench.Sample]], sides: [Side], to report: inout BenchReport
  ) {
    let how =
      "\(ProxyBench.connections) kept-alive HTTPS connections × \(ProxyBench.requestsPerConnection) POST /v1/batch (\(ProxyBench.eventsPerBatch) events) through CONNECT, median of \(runs) runs"
    for side in sides {
      let mine = samples[side.name] ?? []
      report.add(
        "proxy.segment.\(side.name).batchesPerSecond", ProxyBench.median(mine.map(\.rate)), unit: "batches/s",
        baseline: side.label + "; " + how)
      report.add(
        "proxy.segment.\(side.name).p50", ProxyBench.median(mine.map(\.p50)), unit: "ms",
        baseline: "1 connection × \(ProxyBench.latencyRequests) sequential batches")
    }
    for suffix in ["", ".recorded"] {
      let tagscope = samples["local" + suffix] ?? []
      let mitm = samples["mitmproxy" + suffix] ?? []
      let rate = ProxyBench.median(tagscope.map(\.rate))
      let peer = ProxyBench.median(mitm.map(\.rate))
      report.add(
        "proxy.segment.mitmproxy\(suffix).ratio",
        ProxyBench.median(zip(tagscope, mitm).map { $0.rate / $1.rate }),
        unit: "x",
        baseline:
          "tagscope \(BenchReport.format(rate)) ÷ mitmproxy \(BenchReport.format(peer)) batches/s (medians), ratio taken in each run"
      )
      report.add(
        "proxy.segment.mitmproxy\(suffix).p50.ratio",
        ProxyBench.median(zip(mitm, tagscope).map { $0.p50 / $1.p50 }), unit: "x",
        baseline: "mitmproxy p50 ÷ tagscope p50, same run")
    }
  }
}

/// `tagscope proxy` answering locally (no forwarding) into a live session that writes a recording
/// (`records`) or stores nothing; it counts the records the session took.
final class LocalTagscopeProxy {
  let port: Int
  /// The proxy's certificate authority's certificate.
  let authority: URL
  /// The recording it writes, if it records.
  let recording: URL?
  /// The records its session took.
  let counter = Counter()
  private let server: ListenServer
  private let session: LiveSession
  private var stopped = false

  init(directory: URL, records: Bool) throws {
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: false, authorityDirectory: directory.appendingPathComponent("ca"))
    recording = records ? directory.appendingPathComponent("proxy.jsonl") : nil
    let store = try recording.map {
      try Recorder(url: $0, header: RecordingHeader(app: "bench", started: Date()))
    }
    let counter = counter
    let session = LiveSession(store: store) { update in
      for case .records(let records) in update.events { counter.add(records.count) }
    }
    let box = ResultBox<ListenServer>()
    let semaphore = DispatchSemaphore(value: 0)
    Task {
      box.set(
        await Result.capture { try await ListenServer.start(configuration: configuration, ingest: session) })
      semaphore.signal()
    }
    semaphore.wait()
    do { server = try box.get() } catch {
      session.close()
      throw error
    }
    self.session = session
    authority = directory.appendingPathComponent("ca/ca.pem")
    guard let port = server.proxyPort else {
      try? ServerBench.stop(server)
      session.close()
      throw BenchFailure("the proxy did not start")
    }
    self.port = port
  }

  /// Stops the server, then stores what the session holds (once).
  func stop() {
    guard !stopped else { return }
    stopped = true
    try? ServerBench.stop(server)
    session.close()
  }
}
