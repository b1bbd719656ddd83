import Foundation
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline

/// Formats what the server delivers as one sanitized line per record (and per source change or
/// problem), for `tagscope listen --headless`.
public enum HeadlessPrinter {
  /// `10:00:04.210 segment@127.0.0.1 event "Play Podcast" → segment track ✗1`.
  public static func line(for record: Record) -> String {
    let timestamp = ISO8601Timestamp.string(from: record.time)
    let clock = timestamp.dropFirst(11).dropLast()
    var line = "\(clock) \(record.source ?? "-") \(record.kind.rawValue) \"\(record.name)\""
    for output in record.outputs {
      line += " → \(output.provider)"
      if let call = output.calls.first { line += " \(call.method)" }
      if output.status != .sent { line += " (\(output.status.rawValue))" }
      if !output.violations.isEmpty { line += " ✗\(output.violations.count)" }
    }
    return TerminalText.sanitize(line)
  }

  /// One indented line per provider rule `record`'s outputs broke (the `✗N` of its line), for a
  /// session without a plan: `  ✗ dropped firebase.event-name-length: …`.
  public static func providerViolationLines(for record: Record) -> [String] {
    record.outputs.flatMap { output in
      output.violations.map {
        "  " + TerminalText.sanitize("✗ \($0.consequence) \($0.rule): \($0.message)")
      }
    }
  }

  /// The lines for one delivery (records on standard output, the rest as notices).
  public static func lines(for event: ListenEvent) -> (output: [String], notices: [String]) {
    switch event {
    case .records(let records): return (records.map(line(for:)), [])
    case .sourceConnected(let source, let header):
      let started = header.started.map { " started \(ISO8601Timestamp.string(from: $0))" } ?? ""
      return ([], [TerminalText.sanitize("source connected: \(source)\(started)")])
    case .sourceDisconnected(let source):
      return ([], [TerminalText.sanitize("source disconnected: \(source)")])
    case .dropped(let source, let marker):
      return ([], [TerminalText.sanitize("\(source) lost \(marker.count) records before sending them")])
    case .problem(let source, let message):
      return ([], [TerminalText.sanitize("\(source): \(message)")])
    case .inputEnded(let source):
      return ([], [endedLine(source, stopping: false)])
    }
  }

  /// The delivery ledger's summary line, `nil` when no in-app call nor wire call reached it:
  /// `delivery: 12 calls · 10 delivered · 1 queued · 1 dropped by the SDK · 2 wire calls no in-app
  /// call explains`, with those let go of by wire source (`(1 let go of before an in-app call came
  /// for them: segment@phone 1)`).
  public static func deliveryLine(_ snapshot: DeliverySnapshot) -> String? {
    guard snapshot.total > 0 || snapshot.unexplainedCount > 0 else { return nil }
    var parts = ["\(snapshot.total) call\(snapshot.total == 1 ? "" : "s")"]
    for state in DeliveryState.allCases where snapshot.count(state) > 0 {
      parts.append("\(snapshot.count(state)) \(words[state] ?? state.rawValue)")
    }
    let unexplained = snapshot.unexplainedCount
    if unexplained > 0 {
      var part = "\(unexplained) wire call\(unexplained == 1 ? "" : "s") no in-app call explains"
      let letGo = snapshot.letGoUnexplained.filter { $0.value > 0 }.sorted { $0.key < $1.key }
      if !letGo.isEmpty {
        // An in-app call arriving after them can no longer be matched to them: said, not hidden.
        part +=
          " (\(letGo.map(\.value).reduce(0, +)) let go of before an in-app call came for them: "
          + letGo.map { "\($0.key) \($0.value)" }.joined(separator: ", ") + ")"
      }
      parts.append(part)
    }
    return "delivery: " + parts.joined(separator: " · ")
  }

  private static let words: [DeliveryState: String] = [
    .inFlight: "in flight", .droppedBySDK: "dropped by the SDK", .noWireSource: "with no wire source",
  ]

  /// What a headless run says when `source`, read from standard input, ends: it stops there
  /// (`--exit-on-eof`) or goes on serving apps and SDKs.
  public static func endedLine(_ source: String, stopping: Bool) -> String {
    TerminalText.sanitize(
      "\(source): standard input ended"
        + (stopping
          ? ": stopping (--exit-on-eof)"
          : "; listen goes on for apps and SDKs until Ctrl-C (--exit-on-eof stops when it ends)"))
  }
}
