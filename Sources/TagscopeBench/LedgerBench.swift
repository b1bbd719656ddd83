import AnalyticsHub
import Foundation
import TagscopeLive
import TagscopeRecording

/// Issue 46's figures, the delivery ledger's cost and accuracy: 20 devices' in-app Segment calls
/// and the wire records of their batches (``LedgerSession``) through a ``LiveSession`` with the
/// ledger and without it (records/s, median of 3; heap the ledger keeps per record), and the
/// ledger's matches on a generated session without message ids against its ground truth
/// (precision and recall).
enum LedgerBench {
  static let devices = 20
  static let runs = 3

  /// `TAGSCOPE_LEDGER_PARTS` (cost, inapp, wires, accuracy) picks some; all by default.
  static func run(_ report: inout BenchReport) throws {
    let parts = ProcessInfo.processInfo.environment["TAGSCOPE_LEDGER_PARTS"].map {
      Set($0.split(separator: ",").map(String.init))
    }
    if parts?.contains("cost") ?? true { ingest(&report) }
    if parts?.contains("inapp") ?? true { inAppOnly(&report) }
    if parts?.contains("wires") ?? true { pendingWires(&report) }
    if parts?.contains("accuracy") ?? true { accuracy(&report) }
  }

  // MARK: Cost

  /// The same records into a session without a store (so the ledger's share is not hidden by
  /// writing), with and without the ledger, alternately. The session receives them at once (its
  /// clock is not the generated one), so every message is stamped: matched by the device's clock.
  static func ingest(_ report: inout BenchReport) {
    let now = Date().recordMilliseconds
    let session = LedgerSession(
      devices: devices, callsPerDevice: 10_000, start: now - 20 * 3_600_000, unstamped: false)
    let chunks = stride(from: 0, to: session.arrivals.count, by: 200).map {
      session.arrivals[$0..<min($0 + 200, session.arrivals.count)].map {
        SinkItem.record($0.record, line: [])
      }
    }
    let count = Double(session.arrivals.count)
    var with: [Double] = []
    var without: [Double] = []
    var heapWith: [Int] = []
    var heapWithout: [Int] = []
    var states: [DeliveryState: Int] = [:]
    for _ in 0..<runs {
      for ledger in [false, true] {
        let (seconds, heap, counts) = feed(chunks, ledger: ledger)
        if ledger {
          with.append(count / seconds)
          heapWith.append(heap)
          states = counts
        } else {
          without.append(count / seconds)
          heapWithout.append(heap)
        }
      }
    }
    let (rateWith, rateWithout) = (median(with), median(without))
    let baseline = "\(devices) devices, \(Int(count)) records (in-app + wire), no store"
    report.add("ledger: records/s without the ledger", rateWithout, unit: "rec/s", baseline: baseline)
    report.add("ledger: records/s with the ledger", rateWith, unit: "rec/s", baseline: baseline)
    report.add(
      "ledger: rate with / without", rateWith / rateWithout, unit: "×", baseline: "target: ≤ 10% slower",
      atLeast: 0.9)
    report.add(
      "ledger: its time per record", (1 / rateWith - 1 / rateWithout) * 1e9, unit: "ns",
      baseline: "with − without, \(Int(1e9 / rateWithout)) ns per record without")
    let kept = Double(max(0, median(heapWith.map(Double.init)) - median(heapWithout.map(Double.init))))
    report.add(
      "ledger: heap kept per record", kept / count, unit: "B", baseline: "malloc in use, with − without")
    report.add(
      "ledger: heap kept, all calls and wire calls", kept / 1_048_576, unit: "MiB",
      baseline:
        "\(Int(count)) records; pending matches and each device's last \(DeliveryLedger.defaultKeptSettled) settled entries",
      atMost: 16)
    let settled = Double(states[.delivered, default: 0]) / Double(states.values.reduce(0, +))
    report.add("ledger: calls delivered in the cost run", settled, unit: "share", baseline: "sanity check")
  }

  /// The in-app records alone (no wire source: every call stays queued, the debugger's usual
  /// session), with and without the ledger: what calls that never match cost.
  static func inAppOnly(_ report: inout BenchReport) {
    let now = Date().recordMilliseconds
    let session = LedgerSession(devices: devices, callsPerDevice: 10_000, start: now - 20 * 3_600_000)
    let records = session.arrivals.filter { !$0.record.isFromSDK }
    let chunks = stride(from: 0, to: records.count, by: 200).map {
      records[$0..<min($0 + 200, records.count)].map { SinkItem.record($0.record, line: []) }
    }
    var with: [Double] = []
    var without: [Double] = []
    for _ in 0..<runs {
      without.append(Double(records.count) / feed(chunks, ledger: false).seconds)
      with.append(Double(records.count) / feed(chunks, ledger: true).seconds)
    }
    report.add(
      "ledger: in-app only, rate with / without", median(with) / median(without), unit: "×",
      baseline: "\(records.count) in-app records, no wire source, \(LedgerSession.names.count) names",
      atLeast: 0.9)
    report.add(
      "ledger: in-app only, its time per record", (1 / median(with) - 1 / median(without)) * 1e9, unit: "ns",
      baseline: "with − without, \(Int(1e9 / median(without))) ns per record without")
  }

  /// One upload's 4,000 wire calls, none an in-app call explains, in flight (a bulk request the
  /// proxy forwards, before its answer): the heap the ledger keeps for each while they wait.
  static func pendingWires(_ report: inout BenchReport) {
    let count = 4_000
    var random = BenchRandom(seed: 46)
    let start: Int64 = 1_800_000_000_000
    let records = (0..<count).map { index in
      let params: Properties = ["episode": .int(Int(random.next() % 100_000)), "screen": "home"]
      return LedgerSession.wire(
        LedgerSession.names[index % LedgerSession.names.count], params, at: start + Int64(index),
        source: "segment@10.0.0.1")
    }
    var perCall: [Double] = []
    for _ in 0..<runs {
      let before = Memory.heapInUse()
      let ledger = DeliveryLedger()
      ledger.observe(
        records, firstPosition: 0, received: Date(recordMilliseconds: start + 5_000), wireAnswered: false)
      let kept = Memory.heapInUse() - before
      perCall.append(Double(kept) / Double(count))
      withExtendedLifetime(ledger) {}
    }
    report.add(
      "ledger: heap per pending wire call", median(perCall), unit: "B",
      baseline: "\(count) wire calls of one upload in flight, none explained")
  }

  /// Feeds `chunks` to a fresh session; returns the seconds to store them all and have the
  /// ledger (on its own thread) match them, the heap the session keeps once they are (before it
  /// is closed) and the ledger's counts.
  private static func feed(
    _ chunks: [[SinkItem]], ledger: Bool
  ) -> (seconds: Double, heap: Int, counts: [DeliveryState: Int]) {
    let before = Memory.heapInUse()
    let session = LiveSession(
      store: nil, syncsBeforeAcknowledging: false, delivery: ledger ? DeliveryLedger() : nil)
    let seconds = measureSeconds {
      for chunk in chunks { session.receive(chunk) }
      session.flush()
      // A read waits until the ledger's worker has matched every record stored.
      _ = session.delivery?.callCount
    }
    let heap = Memory.heapInUse() - before
    let counts = session.delivery?.snapshot(DeliveryFilter(limit: 0)).counts ?? [:]
    session.close()
    return (seconds, heap, counts)
  }

  // MARK: Accuracy

  /// The ledger's links on a generated session against its truth: precision (links that are the
  /// true wire call), recall (true links found); ambiguous calls are found by no link.
  static func accuracy(_ report: inout BenchReport) {
    let session = LedgerSession(devices: devices, callsPerDevice: 2_000, start: 1_800_000_000_000)
    // Every entry kept: each is checked against the truth.
    let ledger = DeliveryLedger(keptSettled: .max)
    for (position, arrival) in session.arrivals.enumerated() {
      ledger.observe(
        [arrival.record], firstPosition: position, received: Date(recordMilliseconds: arrival.received))
    }
    ledger.finish()
    let truth = session.truth
    let entries = ledger.snapshot().entries
    var (linked, right, lostRight, ambiguous) = (0, 0, 0, 0)
    for entry in entries {
      if let wire = entry.wirePosition {
        linked += 1
        if truth[entry.position] == wire { right += 1 }
      } else if entry.state == .ambiguous {
        ambiguous += 1
      } else if entry.state == .lost, truth[entry.position] == nil {
        lostRight += 1
      }
    }
    let unsent = entries.count - truth.count
    let baseline = "\(entries.count) calls, \(devices) devices, no ids, ±3 min skew, 1 batch in 40 lost"
    report.add(
      "ledger: precision", Double(right) / Double(max(linked, 1)), unit: "share", baseline: baseline,
      atLeast: 0.99)
    report.add(
      "ledger: recall", Double(right) / Double(max(truth.count, 1)), unit: "share", baseline: baseline)
    report.add(
      "ledger: calls shown ambiguous", Double(ambiguous), unit: "calls",
      baseline: "\(session.repeats) identical repeats within a second")
    report.add(
      "ledger: lost calls found lost", Double(lostRight) / Double(max(unsent, 1)), unit: "share",
      baseline: "\(unsent) calls in lost batches")
  }

  private static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
}
