import Foundation
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording

/// validate's delivery section (``DeliverySection``): the live session's delivery ledger run
/// offline over the recordings' records in order, each record received at its own time, the
/// recording's end the session's end (calls not yet sent are lost). Only recordings `listen`
/// wrote (their records carry a `source`) that hold both in-app calls and wire records get one:
/// an app's own recording is never read twice. A wire record is taken as answered by `listen`
/// itself (delivered) unless a forward mark (``DeliveryForwardMarker``) says the proxy forwarded
/// it: then it is in flight until its answer line (``DeliveryAnswerMarker``) gives the vendor's
/// status (refused as live), and lost at the end without one. A recording from before forward marks
/// has none: every wire record is taken as answered by `listen` (the section says which reading).
enum DeliveryAudit {
  /// The states a problem line names: sent by the app, never (known to have) reached the vendor.
  static let problemStates: Set<DeliveryState> = [.lost, .refused, .ambiguous]

  /// The section of `recordings`, `nil` when they hold no in-app call or no wire record, read
  /// standard input, or cannot be read (validate reports that itself).
  static func section(of recordings: [String]) -> DeliverySection? {
    guard recordings.contains(where: writtenByListen) else { return nil }
    let ledger = DeliveryLedger()
    var places: [Int: (file: String, line: Int, seq: UInt64)] = [:]
    var position = 0
    var (calls, wires) = (false, false)
    var last = Date(timeIntervalSince1970: 0)
    // The wire records still to come of the request a forward mark announced: in flight until
    // their answer line, as live.
    var forwardedLeft = 0
    var marked = false
    for path in recordings {
      guard isRegularFile(path), let reader = try? RecordingReader(path: path) else { return nil }
      do {
        while let entry = try reader.next() {
          if case .dropped(let marker, _) = entry, let forward = DeliveryForwardMarker(marker) {
            (forwardedLeft, marked) = (forward.records, true)
          }
          if case .dropped(let marker, _) = entry, let answer = DeliveryAnswerMarker(marker) {
            let time = Date(recordMilliseconds: answer.timeMilliseconds)
            for wire in answer.wirePositions(before: position) {
              ledger.answered(wirePosition: wire, status: answer.status, at: time)
            }
          }
          guard case .record(let record, let location) = entry else { continue }
          if record.isFromSDK {
            wires = true
          } else if record.outputs.contains(where: { $0.status == .sent && !$0.calls.isEmpty }) {
            calls = true
            places[position] = (reader.fileName, location.line, record.seq)
          }
          let forwarded = forwardedLeft > 0
          if forwarded { forwardedLeft -= 1 }
          ledger.observe([record], firstPosition: position, received: record.time, wireAnswered: !forwarded)
          last = max(last, record.time)
          position += 1
        }
      } catch { return nil }
    }
    guard calls && wires else { return nil }
    ledger.finish()
    var section = section(ledger.snapshot(now: last), places: places)
    section.answersMarked = marked
    return section
  }

  /// Whether the recording at `path` was written by `listen`: its first record has a source.
  private static func writtenByListen(_ path: String) -> Bool {
    guard isRegularFile(path), let reader = try? RecordingReader(path: path) else { return false }
    while let entry = try? reader.next() {
      if case .record(let record, _) = entry { return record.source != nil }
    }
    return false
  }

  /// Whether `path` is a regular file, asked without opening it: opening a FIFO or pipe again
  /// (validate has read it) would wait for a writer that never comes, or read it mid-stream.
  static func isRegularFile(_ path: String) -> Bool {
    guard path != "-" else { return false }
    var status = stat()
    return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
  }

  static func section(
    _ snapshot: DeliverySnapshot, places: [Int: (file: String, line: Int, seq: UInt64)]
  ) -> DeliverySection {
    let counts = DeliveryState.allCases.map {
      DeliverySection.StateCount(state: $0.rawValue, count: snapshot.count($0))
    }
    var byProvider: [String: [DeliveryState: Int]] = [:]
    for entry in snapshot.entries { byProvider[entry.provider, default: [:]][entry.state, default: 0] += 1 }
    let providers = byProvider.keys.sorted().map { provider in
      DeliverySection.ProviderCounts(
        provider: provider,
        counts: DeliveryState.allCases.compactMap { state in
          byProvider[provider]?[state].map { DeliverySection.StateCount(state: state.rawValue, count: $0) }
        })
    }
    let problems = snapshot.entries.filter { problemStates.contains($0.state) }.map { entry in
      let place = places[entry.position]
      return DeliverySection.Problem(
        provider: entry.provider, call: entry.name ?? entry.method, state: entry.state.rawValue,
        status: entry.state == .refused ? entry.answerStatus : nil, reason: entry.reason,
        file: place?.file ?? "-", line: place?.line ?? 0, seq: place?.seq ?? 0)
    }
    return DeliverySection(
      counts: counts, providers: providers, problems: problems, unexplained: snapshot.unexplainedCount)
  }
}
