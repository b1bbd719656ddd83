import AnalyticsHub
import Foundation
import TagscopeLive
import TagscopeRecording

/// Issue 46's cost figure as the issue words it, the ledger on `listen` ingest: 20 devices at once,
/// each an app whose inspector streams its in-app Segment calls while its Segment SDK posts the
/// same calls as `/v1/batch` requests of 20 (message ids, timestamps by the device's clock, its
/// user) after them, over loopback into a real ``ListenServer`` writing a real recording through
/// the ``LiveSession`` `tagscope listen --record` runs, with its ledger and without it,
/// alternately (3 rounds, medians). Each run ends when every record is stored and the ledger has
/// matched them all. ``LedgerBench`` measures the same ledger without the server and the
/// recording, where its share is larger.
///
/// Part `listen` of `TAGSCOPE_LEDGER_PARTS`; `TAGSCOPE_LEDGER_LISTEN_CALLS` sets the calls per
/// device (default 10,000).
enum LedgerListenBench {
  static let devices = 20
  static let batch = 20
  static let rounds = 3

  static var callsPerDevice: Int {
    ProcessInfo.processInfo.environment["TAGSCOPE_LEDGER_LISTEN_CALLS"].flatMap(Int.init) ?? 10_000
  }

  static func run(_ report: inout BenchReport) throws {
    if let parts = ProcessInfo.processInfo.environment["TAGSCOPE_LEDGER_PARTS"],
      !parts.split(separator: ",").contains("listen")
    {
      return
    }
    let directory = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent(
      "tagscope-ledger-listen-bench-\(getpid())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }

    // The calls are made 50 ms apart, ending now.
    let start = Date().recordMilliseconds - Int64(callsPerDevice) * 50
    let traffic = (0..<devices).map { DeviceTraffic(device: $0, calls: callsPerDevice, start: start) }
    let total = devices * callsPerDevice * 2
    var with: [Double] = []
    var without: [Double] = []
    var delivered = 0.0
    var states = ""
    for round in 0..<rounds {
      for ledger in [false, true] {
        let file = directory.appendingPathComponent("round-\(round)-\(ledger).jsonl")
        let outcome = try feed(traffic, total: total, recording: file, ledger: ledger)
        try? FileManager.default.removeItem(at: file)
        if ledger {
          with.append(Double(total) / outcome.seconds)
          delivered = outcome.delivered
          states = outcome.states
        } else {
          without.append(Double(total) / outcome.seconds)
        }
      }
    }
    let baseline =
      "\(devices) devices: inspector streams + Segment /v1/batch × \(batch), \(total) records, recording"
    report.add(
      "ledger.listen: records/s without the ledger", median(without), unit: "rec/s", baseline: baseline)
    report.add("ledger.listen: records/s with the ledger", median(with), unit: "rec/s", baseline: baseline)
    report.add(
      "ledger.listen: rate with / without", median(with) / median(without), unit: "×",
      baseline: "target: ≤ 10% slower; per round "
        + zip(with, without).map { String(format: "%.2f", $0 / $1) }
        .joined(separator: ", "),
      atLeast: 0.9)
    report.add(
      "ledger.listen: calls delivered", delivered, unit: "share",
      baseline: "in-app calls matched to their wire call (sanity check): \(states)", atLeast: 0.999)
  }

  /// One run: every device's inspector and SDK send at once; returns the seconds until every
  /// record is stored and matched, and the share of in-app calls delivered.
  private static func feed(
    _ traffic: [DeviceTraffic], total: Int, recording: URL, ledger: Bool
  ) throws -> (seconds: Double, delivered: Double, states: String) {
    let running = try RecordingServer(recording: recording, live: true, ledger: ledger)
    let port = running.server.port
    let failures = Counter()
    let seconds = try measureSeconds {
      // Each device on its own thread (all at once, not as many as there are cores), as an app
      // does it: its calls reach the inspector's stream, then its SDK posts them as one batch
      // and waits for the answer before the next.
      let done = DispatchGroup()
      for device in traffic {
        done.enter()
        Thread {
          defer { done.leave() }
          guard let inspector = try? BenchSocket(port: port), let sdk = try? BenchSocket(port: port) else {
            return failures.add(1)
          }
          for (calls, request) in zip(device.inspector, device.requests) {
            inspector.send(calls)
            sdk.send(request)
            guard sdk.readResponseStatus() == 200 else { return failures.add(1) }
          }
          inspector.finishSending()
          inspector.waitForClose()
        }.start()
      }
      done.wait()
      // A sender that failed sent less: say so now rather than wait for records that never come.
      guard failures.value == 0 else { throw BenchFailure("ledger.listen: \(failures.value) senders failed") }
      try running.counter.wait(for: total, timeout: 300)
      running.waitForLedger()
    }
    let counts = running.deliveryCounts
    try running.stop()
    let calls = counts.values.reduce(0, +)
    let states = counts.sorted { $0.value > $1.value }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
    return (seconds, ledger ? Double(counts[.delivered, default: 0]) / Double(max(calls, 1)) : 0, states)
  }

  private static func median(_ values: [Double]) -> Double { DurableBench.median(values) }
}

/// One device's traffic for ``LedgerListenBench``: its inspector's stream (header, then one
/// Segment `track` call a record) in the chunks of its SDK's HTTP requests carrying the same calls.
private struct DeviceTraffic: Sendable {
  static let names = LedgerSession.names
  static let screens = LedgerSession.screens

  /// The stream's bytes: the calls of each request (the first chunk starts with the header).
  var inspector: [[UInt8]] = []
  var requests: [[UInt8]] = []

  init(device: Int, calls: Int, start: Int64) {
    var random = BenchRandom(seed: UInt64(46 + device))
    let user = "u-\(device)"
    var chunk: [UInt8] = []
    RecordLineEncoder.appendLine(
      RecordingHeader(app: "Podcasts", device: "phone-\(device)", started: Date(recordMilliseconds: start)),
      to: &chunk)
    var messages: [String] = []
    for index in 0..<calls {
      let time = start + Int64(index) * 50
      let name = Self.names[Int(random.next() % UInt64(Self.names.count))]
      // Episodes from a large range: two identical calls of one user within the ledger's window
      // (ambiguous by rule, never guessed) stay rare, so every call should be delivered.
      let episode = Int(random.next() % 1_000_000)
      let screen = Self.screens[Int(random.next() % UInt64(Self.screens.count))]
      let params: Properties = ["episode": .int(episode), "screen": .string(screen)]
      let record = Record(
        seq: UInt64(index + 1), time: Date(recordMilliseconds: time), kind: .event, name: name,
        properties: params,
        context: RecordContext(session: RecordSession(id: "s-\(device)", state: "authenticated", user: user)),
        outputs: [
          ProviderOutput(
            provider: "segment", status: .sent,
            calls: [CallDescription(method: "track", name: name, parameters: params)])
        ])
      RecordLineEncoder.appendLine(record, to: &chunk)
      let stamp = ISO8601Timestamp.string(from: Date(recordMilliseconds: time))
      messages.append(
        #"{"type":"track","event":"\#(name)","userId":"\#(user)","anonymousId":"anon-\#(device)","#
          + #""messageId":"m-\#(device)-\#(index)","timestamp":"\#(stamp)","#
          + #""properties":{"episode":\#(episode),"screen":"\#(screen)"},"#
          + #""context":{"library":{"name":"analytics-python","version":"2.3.3"}}}"#)
      if messages.count == LedgerListenBench.batch || index == calls - 1 {
        let body = Array((#"{"writeKey":"bench","batch":["# + messages.joined(separator: ",") + "]}").utf8)
        let head =
          "POST /v1/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
          + "Content-Length: \(body.count)\r\n\r\n"
        requests.append(Array(head.utf8) + body)
        inspector.append(chunk)
        messages.removeAll(keepingCapacity: true)
        chunk.removeAll(keepingCapacity: true)
      }
    }
  }
}
