import Foundation
import TagscopeRecording

/// One measured figure: a value, its unit, the target and what it is compared with.
struct Figure {
  var name: String
  var value: Double
  var unit: String
  var baseline: String
  /// The target, as text (`≤ 1.5`, `≥ 500000`), for the table.
  var target: String
  /// Whether the value meets the target.
  var passes: Bool
}

/// Collects figures and prints them as a table or as one JSON object keyed by figure name.
struct BenchReport {
  private(set) var figures: [Figure] = []

  mutating func add(_ name: String, _ value: Double, unit: String, baseline: String, atMost limit: Double) {
    figures.append(
      Figure(
        name: name, value: value, unit: unit, baseline: baseline, target: "≤ \(Self.format(limit))",
        passes: value <= limit))
  }

  mutating func add(_ name: String, _ value: Double, unit: String, baseline: String, atLeast limit: Double) {
    figures.append(
      Figure(
        name: name, value: value, unit: unit, baseline: baseline, target: "≥ \(Self.format(limit))",
        passes: value >= limit))
  }

  mutating func add(_ name: String, _ value: Double, unit: String, baseline: String) {
    figures.append(Figure(name: name, value: value, unit: unit, baseline: baseline, target: "", passes: true))
  }

  func printTable() {
    let headers = ["figure", "value", "unit", "target", "ok", "baseline"]
    let rows = figures.map {
      [
        $0.name, Self.format($0.value), $0.unit, $0.target,
        $0.target.isEmpty ? "" : ($0.passes ? "yes" : "NO"), $0.baseline,
      ]
    }
    var widths = headers.map(\.count)
    for row in rows {
      for (index, cell) in row.enumerated() { widths[index] = max(widths[index], cell.count) }
    }
    func line(_ cells: [String]) -> String {
      cells.enumerated().map { $0.element.padding(toLength: widths[$0.offset], withPad: " ", startingAt: 0) }
        .joined(separator: "  ")
    }
    print(line(headers))
    print(widths.map { String(repeating: "-", count: $0) }.joined(separator: "  "))
    for row in rows { print(line(row)) }
  }

  func printJSON() {
    var parts: [String] = []
    for figure in figures {
      let value = figure.value.isFinite ? Self.format(figure.value) : "null"
      parts.append(
        "\(JSONText.quoted(figure.name)): {\"value\": \(value), \"unit\": \(JSONText.quoted(figure.unit)), \"baseline\": \(JSONText.quoted(figure.baseline)), \"target\": \(JSONText.quoted(figure.target)), \"passes\": \(figure.passes)}"
      )
    }
    print("{" + parts.joined(separator: ", ") + "}")
  }

  static func format(_ value: Double) -> String {
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    if abs(value) >= 100 { return String(format: "%.0f", value) }
    if abs(value) >= 1 { return String(format: "%.2f", value) }
    return String(format: "%.4f", value)
  }
}

/// Wall-clock seconds taken by `body`.
func measureSeconds(_ body: () throws -> Void) rethrows -> Double {
  let start = DispatchTime.now().uptimeNanoseconds
  try body()
  return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

/// The best (smallest) of `runs` timings, so a noisy neighbour does not decide a figure.
func bestOf(_ runs: Int, _ body: () throws -> Void) rethrows -> Double {
  var best = Double.infinity
  for _ in 0..<runs { best = min(best, try measureSeconds(body)) }
  return best
}

/// Keeps a value alive so the optimizer cannot remove the work that produced it.
@inline(never)
func blackHole<T>(_ value: T) {
  withExtendedLifetime(value) {}
}
