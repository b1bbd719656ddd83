import AnalyticsHub
import ArgumentParser
import Foundation
import PodcastDemo

/// `tagscope demo`: the podcast app simulator on a real hub.
struct DemoCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "demo",
    abstract: "Run the podcast app simulator on a real AnalyticsHub and show what it dispatches."
  )

  @Option(help: "Events per second (up to 10,000 for load); default: human-like timing.")
  var rate: Double?

  @Option(help: "Random seed; equal seeds give equal journeys, timestamps and session ids.")
  var seed: UInt64?

  @Option(help: "Stop after this many tags (default: run until interrupted; 1,000 when headless).")
  var count: Int?

  @Flag(help: "No user interface: print one line per dispatch and exit after --count tags.")
  var headless = false

  func validate() throws {
    if let rate, !(rate > 0 && rate <= 10_000) {
      throw ValidationError("--rate must be between 0 and 10,000 events per second")
    }
    if let count, count < 0 { throw ValidationError("--count must not be negative") }
  }

  func run() throws {
    let seed = self.seed ?? UInt64(Date().timeIntervalSince1970)
    let clock = ManualClock(start: self.seed == nil ? Date() : DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: seed)
    let printer = DispatchPrinter()
    hub.addObserver(printer)
    let simulator = PodcastSimulator(hub: hub, seed: seed)
    let total = count ?? 1_000
    var sent = 0
    while printer.count < total {
      let delay = simulator.step()
      clock.advance(by: rate.map { 1 / $0 } ?? delay)
      sent += 1
      if sent > total * 10 { break }
    }
  }
}

/// Prints one line per dispatch: sequence, time, kind, name, properties and each provider's outcome.
final class DispatchPrinter: HubObserver, @unchecked Sendable {
  private(set) var count = 0

  func hubDidDispatch(_ dispatch: Dispatch) {
    count += 1
    var line =
      "#\(dispatch.seq) \(ISO8601Timestamp.string(from: dispatch.time)) \(dispatch.kind.rawValue) \(dispatch.name)"
    if !dispatch.properties.isEmpty { line += " \(dispatch.properties)" }
    for outcome in dispatch.outcomes {
      line += " | \(outcome.provider): \(outcome.status.word)"
      if case .blocked(let reason) = outcome.status { line += "(\(reason.rawValue))" }
      for call in outcome.calls { line += " \(call.method) \(call.name ?? "")" }
      if !outcome.violations.isEmpty { line += " ✗\(outcome.violations.count)" }
    }
    for issue in dispatch.issues { line += " ! \(issue.message)" }
    print(TerminalText.sanitized(line))
  }
}

/// Makes untrusted text safe to print: control characters and bidi/zero-width characters are
/// shown escaped instead of acting on the terminal.
enum TerminalText {
  static func sanitized(_ text: String) -> String {
    var out = ""
    out.reserveCapacity(text.utf8.count)
    for scalar in text.unicodeScalars {
      switch scalar.value {
      case 0x1B: out += "\\e"
      case 0x0A: out += "\\n"
      case 0x0D: out += "\\r"
      case 0x09: out += "\\t"
      case 0x00..<0x20, 0x7F..<0xA0, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0xFEFF:
        out += String(format: "<U+%04X>", scalar.value)
      default: out.unicodeScalars.append(scalar)
      }
    }
    return out
  }
}
