import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer

/// Issue 31, amplification: one small request that became huge work. Each attack is sent to a real
/// `tagscope listen --headless --record` process while a probe (a one-event Segment track on its
/// own connection) is sent again and again; the figures are the attack's seconds until answered,
/// the recording's bytes per event sent, the process's peak RSS (VmHWM) and the probe's p99.
///
/// The process measured is `TAGSCOPE_BINARY` (default: the `tagscope` built beside this bench);
/// with `TAGSCOPE_BASELINE_BINARY` (a build of the commit before the fix) the same runs are made
/// against it and each figure is also given as a ratio after/before. Medians of
/// `TAGSCOPE_AMPLIFICATION_RUNS` runs (default 3). `TAGSCOPE_AMPLIFICATION_PARTS` picks some of
/// `ga4,posthog,snowplow,firebase,proxy,durable` (default all; `durable` is ``DurableBench``; when set, the
/// `hostile` group runs only this benchmark), and `TAGSCOPE_AMPLIFICATION_ATTACKS` some attacks of those
/// parts by name (`firebase_events,firebase_peer_posthog`); `TAGSCOPE_AMPLIFICATION_SCALE=N` divides the
/// PostHog and Snowplow event counts (and so their bodies) by N, for debug builds. The PostHog
/// batch is sent to each of its paths (`/batch/`, `/e/`, `/capture/`, `/i/v0/e/`) and gzipped;
/// each attack's peak RSS is also given per MB of body (decompressed; target ≤ 20×). The `proxy`
/// part sends the PostHog batch (plain and gzipped) through `tagscope proxy` in absolute form to
/// `us.i.posthog.com`, resolved to a closed port (the proxy decodes and records it, then answers
/// `502`): the proxy's peak RSS per MB of body, to set beside listen's. The `firebase` part sends
/// Firebase's `POST /a` the bodies issue 45 names: a gzip bomb (16 MB of zeros behind
/// `Content-Encoding: gzip`, refused past the path's 1 MB), 100,000 items nested in one another
/// (refused at the depth limit), 4,000 small events (the most one upload may hold, recorded) and
/// 60,000 (refused as too many). As the process's own size dwarfs bodies of 1 MB and less, each
/// attack's growth (peak RSS less the RSS before it was sent) is also given per MB of body
/// (`peakGrowthPerMB`), and a bomb's body counts as the bytes admitted before it is refused. The
/// Firebase attacks are measured warm (``Attack/warmUp``): a one-event upload and a probe answered
/// first, so the ~1.6 MB of code pages a first request faults in, once per process whatever the
/// body, is not counted as what the body cost.
enum AmplificationBench {
  struct Attack {
    var name: String
    var path: String
    var body: [UInt8]
    var events: Int
    var connections: Int
    /// The part of `TAGSCOPE_AMPLIFICATION_PARTS` it belongs to.
    var part: String
    /// The body as sent (gzip), when not ``body``.
    var sent: [UInt8]? = nil
    /// Sent through `tagscope proxy` to this SDK host rather than to `listen`.
    var proxiedHost: String? = nil
    /// Its `Content-Type`.
    var contentType = "application/json"
    /// The most bytes of the body the server takes before it refuses it, when less than all.
    var admitted: Int? = nil
    /// A small valid request (sent as the attack is: gzip'd when it is) the server answers, with
    /// one probe, before its RSS is read: the code pages a first request faults in (file-backed,
    /// once per process, whatever the body) are then not counted as the attack's growth.
    var warmUp: [UInt8]? = nil

    /// The body's bytes the server holds at most: all, or what it admits.
    var heldBytes: Int { min(body.count, admitted ?? body.count) }
  }

  struct Outcome {
    var seconds: Double
    var bytesPerEvent: Double
    var peakMB: Double
    var probeP99: Double
    /// Peak RSS less the RSS just before the attack was sent.
    var growthMB: Double = 0
    /// The highest anonymous RSS sampled less the one just before the attack: the memory the
    /// request held, without the binary's code pages its first run faulted in (file-backed).
    var anonymousGrowthMB: Double = 0
  }

  static func run(_ report: inout BenchReport) throws {
    let environment = ProcessInfo.processInfo.environment
    let runs = Int(environment["TAGSCOPE_AMPLIFICATION_RUNS"] ?? "") ?? 3
    let binary =
      environment["TAGSCOPE_BINARY"]
      ?? Bundle.main.executableURL!.deletingLastPathComponent().appendingPathComponent("tagscope").path
    let baseline = environment["TAGSCOPE_BASELINE_BINARY"]
    let parts = Set(
      (environment["TAGSCOPE_AMPLIFICATION_PARTS"] ?? "ga4,posthog,snowplow,firebase,proxy,durable").split(
        separator: ","
      )
      .map(String.init))
    if parts.contains("durable") { try DurableBench.figures(runs: runs, to: &report) }
    let scale = max(1, Int(environment["TAGSCOPE_AMPLIFICATION_SCALE"] ?? "") ?? 1)
    let picked = environment["TAGSCOPE_AMPLIFICATION_ATTACKS"].map {
      Set($0.split(separator: ",").map(String.init))
    }
    for attack in attacks(scale: scale)
    where parts.contains(attack.part) && picked.map({ $0.contains(attack.name) }) ?? true {
      let after = try median(runs) { try measure(attack, binary: binary) }
      add(after, attack: attack, label: "after", to: &report)
      guard let baseline else { continue }
      let before = try median(runs) { try measure(attack, binary: baseline) }
      add(before, attack: attack, label: "before", to: &report)
      let name = "amplification.\(attack.name)"
      report.add(
        "\(name).seconds.ratio", after.seconds / before.seconds, unit: "×", baseline: "after / before")
      report.add(
        "\(name).bytesPerEvent.ratio", after.bytesPerEvent / max(before.bytesPerEvent, 1), unit: "×",
        baseline: "after / before")
      report.add("\(name).peakRSS.ratio", after.peakMB / before.peakMB, unit: "×", baseline: "after / before")
      report.add(
        "\(name).probeP99.ratio", after.probeP99 / before.probeP99, unit: "×", baseline: "after / before")
    }
  }

  static func add(_ outcome: Outcome, attack: Attack, label: String, to report: inout BenchReport) {
    let name = "amplification.\(attack.name).\(label)"
    let what = "\(attack.connections) × \(attack.body.count / 1024) KB, \(attack.events) events, \(label)"
    report.add("\(name).seconds", outcome.seconds, unit: "s", baseline: what)
    report.add(
      "\(name).bytesPerEvent", outcome.bytesPerEvent, unit: "B",
      baseline: attack.events == 0 ? "recording's bytes (no event is in the body)" : "recording / events sent"
    )
    report.add(
      "\(name).peakRSS", outcome.peakMB, unit: "MB",
      baseline: attack.proxiedHost == nil ? "VmHWM of listen" : "VmHWM of proxy")
    let bodyMB = Double(attack.heldBytes * attack.connections) / 1_048_576
    let bodyWords =
      String(format: "%.2f MB", bodyMB)
      + (attack.admitted != nil
        ? " admitted of the gunzipped body" : attack.sent == nil ? "" : " once gunzipped")
    report.add(
      "\(name).peakRSSPerMB", outcome.peakMB / bodyMB, unit: "×",
      baseline: "peak RSS per MB of body (" + bodyWords + "; target ≤ 20)")
    let warm = attack.warmUp == nil ? "" : ", after a one-event warm-up request to the same path"
    report.add(
      "\(name).peakGrowthPerMB", outcome.growthMB / bodyMB, unit: "×",
      baseline:
        "(peak RSS − RSS before the attack\(warm): \(String(format: "%.1f", outcome.growthMB)) MB) per MB of body ("
        + bodyWords + "; target ≤ 20)", atMost: 20)
    report.add(
      "\(name).peakAnonymousGrowthPerMB", outcome.anonymousGrowthMB / bodyMB, unit: "×",
      baseline:
        "(highest RssAnon sampled − RssAnon before: \(String(format: "%.1f", outcome.anonymousGrowthMB)) MB) per MB "
        + "of body: peakGrowthPerMB without the code pages first run (file-backed)")
    report.add("\(name).probeP99", outcome.probeP99, unit: "ms", baseline: "one-event /v1/track meanwhile")
  }

  /// The three attacks of the issue: 9,000 tiny GA4 events in 117 KB, 1.45 M minimal PostHog events
  /// in 20 MB, 16 Snowplow bodies of 95,000 page views in 1 MB each.
  static func attacks(scale: Int) -> [Attack] {
    let ga4Events = 9_000
    let ga4 =
      #"{"client_id":"c","events":["#
      + Array(repeating: #"{"name":"e"}"#, count: ga4Events)
      .joined(separator: ",") + "]}"
    let postHogEvents = 1_450_000 / scale
    let postHog =
      #"{"api_key":"k","batch":["#
      + Array(repeating: #"{"event":"e"}"#, count: postHogEvents)
      .joined(separator: ",") + "]}"
    let snowplowEvents = 95_000 / scale
    let snowplow =
      #"{"schema":"iglu:com.snowplowanalytics.snowplow/payload_data/jsonschema/1-0-4","data":["#
      + Array(repeating: #"{"e":"pv"}"#, count: snowplowEvents).joined(separator: ",") + "]}"
    return [
      Attack(
        name: "ga4", path: "/mp/collect?measurement_id=G-1&api_secret=s", body: Array(ga4.utf8),
        events: ga4Events, connections: 1, part: "ga4"),
      Attack(
        name: "posthog", path: "/batch", body: Array(postHog.utf8), events: postHogEvents, connections: 1,
        part: "posthog"),
      Attack(
        name: "posthog_e", path: "/e/", body: Array(postHog.utf8), events: postHogEvents, connections: 1,
        part: "posthog"),
      Attack(
        name: "posthog_capture", path: "/capture/", body: Array(postHog.utf8), events: postHogEvents,
        connections: 1, part: "posthog"),
      Attack(
        name: "posthog_i", path: "/i/v0/e/", body: Array(postHog.utf8), events: postHogEvents, connections: 1,
        part: "posthog"),
      Attack(
        name: "posthog_gzip", path: "/batch/", body: Array(postHog.utf8), events: postHogEvents,
        connections: 1,
        part: "posthog", sent: gzip(Array(postHog.utf8))),
      Attack(
        name: "proxy_posthog", path: "/batch/", body: Array(postHog.utf8), events: postHogEvents,
        connections: 1, part: "proxy", proxiedHost: "us.i.posthog.com"),
      Attack(
        name: "proxy_posthog_gzip", path: "/batch/", body: Array(postHog.utf8), events: postHogEvents,
        connections: 1, part: "proxy", sent: gzip(Array(postHog.utf8)), proxiedHost: "us.i.posthog.com"),
      Attack(
        name: "snowplow", path: "/com.snowplowanalytics.snowplow/tp2", body: Array(snowplow.utf8),
        events: snowplowEvents * 16, connections: 16, part: "snowplow"),
    ] + FirebaseAttacks.all
  }

  static func median(_ runs: Int, _ body: () throws -> Outcome) throws -> Outcome {
    let outcomes = try (0..<max(1, runs)).map { _ in try body() }
    func middle(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    return Outcome(
      seconds: middle(outcomes.map(\.seconds)), bytesPerEvent: middle(outcomes.map(\.bytesPerEvent)),
      peakMB: middle(outcomes.map(\.peakMB)), probeP99: middle(outcomes.map(\.probeP99)),
      growthMB: middle(outcomes.map(\.growthMB)), anonymousGrowthMB: middle(outcomes.map(\.anonymousGrowthMB))
    )
  }

  /// One run of `attack` against a fresh `binary listen` process.
  static func measure(_ attack: Attack, binary: String) throws -> Outcome {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-amplification-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let recording = directory.appendingPathComponent("a.jsonl")
    let port = try POSIXListener().port
    let process = Process()
    process.executableURL = URL(fileURLWithPath: binary)
    process.arguments = [
      "listen", "--headless", "--quiet", "--port", String(port), "--record", recording.path,
    ]
    // Through the proxy: the attack goes to its port in absolute form, the vendor a closed port.
    var aim = (port: port, path: attack.path, host: "127.0.0.1")
    if let host = attack.proxiedHost {
      let proxyPort = try POSIXListener().port
      let vendor = try POSIXListener().port
      process.arguments = [
        "proxy", "--headless", "--quiet", "--port", String(port), "--proxy-port", String(proxyPort),
        "--ca-dir", directory.appendingPathComponent("ca").path, "--record", recording.path,
        "--resolve", "\(host)=127.0.0.1:\(vendor)",
      ]
      aim = (proxyPort, "http://\(host)\(attack.path)", host)
    }
    let target = aim
    process.standardOutput = FileHandle.nullDevice
    process.standardError = FileHandle.nullDevice
    try process.run()
    defer { if process.isRunning { process.terminate() } }
    let probe = try connect(port: port)
    if attack.proxiedHost != nil { _ = try connect(port: target.port) }
    let encoding = attack.sent == nil ? "" : "Content-Encoding: gzip\r\n"
    func framed(_ sent: [UInt8]) -> [UInt8] {
      Array(
        ("POST \(target.path) HTTP/1.1\r\nHost: \(target.host)\r\nContent-Type: \(attack.contentType)\r\n"
          + "\(encoding)Content-Length: \(sent.count)\r\n\r\n").utf8) + sent
    }
    let request = framed(attack.sent ?? attack.body)
    let track = HostileBench.request(
      path: "/v1/track", body: #"{"writeKey":"k","type":"track","userId":"p","event":"Probe"}"#)
    if let warmUp = attack.warmUp {
      let socket = try BenchSocket(port: target.port)
      socket.send(framed(warmUp))
      _ = socket.readResponseStatus()
      probe.send(track)
      _ = probe.readResponseStatus()
    }
    let answered = Counter()
    let idleMB = PeakMemory.residentMegabytes(pid: process.processIdentifier)
    let idleAnonymousMB = PeakMemory.anonymousMegabytes(pid: process.processIdentifier)
    let start = DispatchTime.now().uptimeNanoseconds
    let senders = (0..<attack.connections).map { _ in
      Thread {
        if let socket = try? BenchSocket(port: target.port) {
          socket.send(request)
          _ = socket.readResponseStatus()
        }
        answered.add(1)
      }
    }
    for sender in senders { sender.start() }
    let peak = PeakMemory(pid: process.processIdentifier)
    var probes: [Double] = []
    while answered.value < attack.connections || probes.count < 5 {
      let sent = DispatchTime.now().uptimeNanoseconds
      probe.send(track)
      _ = probe.readResponseStatus()
      probes.append(Double(DispatchTime.now().uptimeNanoseconds - sent) / 1e6)
      peak.sample()
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    peak.sample()
    process.interrupt()
    while process.isRunning {
      peak.sample()
      usleep(10_000)
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: recording.path)[.size] as? Int) ?? 0
    probes.sort()
    return Outcome(
      seconds: seconds, bytesPerEvent: Double(size) / Double(max(attack.events, 1)), peakMB: peak.megabytes,
      probeP99: probes[min(probes.count - 1, probes.count * 99 / 100)], growthMB: peak.megabytes - idleMB,
      anonymousGrowthMB: peak.anonymousMegabytes - idleAnonymousMB)
  }

  /// `bytes` gzipped by the system's `gzip` (`nil` without one: the attack is then sent plain).
  static func gzip(_ bytes: [UInt8]) -> [UInt8]? {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-amplification-gzip-\(UUID().uuidString)")
    guard (try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)) != nil
    else { return nil }
    defer { try? FileManager.default.removeItem(at: directory) }
    let file = directory.appendingPathComponent("body")
    guard (try? Data(bytes).write(to: file)) != nil else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["gzip", "-n", file.path]
    guard (try? process.run()) != nil else { return nil }
    process.waitUntilExit()
    guard process.terminationStatus == 0, let data = try? Data(contentsOf: file.appendingPathExtension("gz"))
    else { return nil }
    return Array(data)
  }

  /// A connection to the server just started, once it listens.
  static func connect(port: Int) throws -> BenchSocket {
    for _ in 0..<600 {
      if let socket = try? BenchSocket(port: port) { return socket }
      usleep(50_000)
    }
    throw BenchFailure("listen did not start on port \(port)")
  }
}

/// The peak resident set of a process (`VmHWM` in `/proc/PID/status`), read while it runs, and the
/// highest anonymous resident set sampled (`RssAnon`: the kernel keeps no peak of it).
final class PeakMemory {
  private let path: String
  private(set) var kilobytes = 0
  private(set) var anonymousKilobytes = 0

  init(pid: Int32) { path = "/proc/\(pid)/status" }

  var megabytes: Double { Double(kilobytes) / 1024 }
  var anonymousMegabytes: Double { Double(anonymousKilobytes) / 1024 }

  func sample() {
    if let anonymous = Self.status(path, "RssAnon:") {
      anonymousKilobytes = max(anonymousKilobytes, anonymous)
    }
    guard let value = Self.status(path, "VmHWM:") else { return }
    kilobytes = max(kilobytes, value)
  }

  /// The anonymous resident set of `pid` now (`RssAnon`), 0 when unknown.
  static func anonymousMegabytes(pid: Int32) -> Double {
    Double(status("/proc/\(pid)/status", "RssAnon:") ?? 0) / 1024
  }

  /// The resident set of `pid` now (`VmRSS`), 0 when unknown.
  static func residentMegabytes(pid: Int32) -> Double {
    Double(status("/proc/\(pid)/status", "VmRSS:") ?? 0) / 1024
  }

  /// The kilobytes of `field` in the status file at `path`.
  private static func status(_ path: String, _ field: String) -> Int? {
    guard let status = try? String(contentsOfFile: path, encoding: .utf8),
      let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
    else { return nil }
    return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "")
  }
}
