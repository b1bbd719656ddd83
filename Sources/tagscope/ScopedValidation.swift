import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording

/// `validate --scope NAME`: each UI test scope's records copied out of the recordings (other lines
/// left blank, so the copies' line numbers are the originals'), validated as recordings are, and
/// the copies' paths written back as the originals' in the report and the diagnostics.
struct ScopedValidation {
  var plan: String
  var recordings: [String]
  /// The scopes asked for; `*` is every scope begun in the recordings.
  var scopes: [String]
  var format: ReportFormat
  var failOn: Severity
  var failOnUnreadable: Bool
  var bySource: Bool
  var generated: Date

  /// The report, the messages for standard error and the exit status.
  struct Outcome {
    var exitCode: Int32
    var output: String
    var diagnostics: String
  }

  func run() -> Outcome {
    guard !recordings.contains("-") else {
      return Outcome(
        exitCode: 2, output: "", diagnostics: "tagscope: --scope reads recording files, not standard input\n")
    }
    let names: [String]
    do { names = try resolvedNames() } catch {
      return Outcome(exitCode: 2, output: "", diagnostics: "tagscope: \(error)\n")
    }
    guard !names.isEmpty else {
      return Outcome(
        exitCode: 2, output: "",
        diagnostics: "tagscope: no UI test scope in \(recordings.joined(separator: ", "))\n")
    }
    guard names.count == 1 || format == .junit else {
      return Outcome(
        exitCode: 2, output: "",
        diagnostics:
          "tagscope: \(names.count) scopes (\(names.joined(separator: ", "))) need --format junit, one testsuite per scope; give one --scope for \(format.rawValue)\n"
      )
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-scopes-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    var outcome = Outcome(exitCode: 0, output: "", diagnostics: "")
    var reports: [(scope: String, xml: String)] = []
    for (index, name) in names.enumerated() {
      do {
        guard
          let (report, exitCode) = try validate(
            name, copiesIn: directory.appendingPathComponent("\(index)"), into: &outcome.diagnostics)
        else {
          outcome.exitCode = 2
          continue
        }
        outcome.exitCode = max(outcome.exitCode, exitCode)
        reports.append((name, report))
      } catch {
        outcome.diagnostics += "tagscope: \(error)\n"
        outcome.exitCode = 2
      }
    }
    outcome.output = format == .junit ? ValidateRunner.combineJUnit(reports) : reports.first?.xml ?? ""
    if reports.isEmpty { outcome.output = "" }
    return outcome
  }

  /// The scope names asked for, `*` read from the recordings.
  private func resolvedNames() throws -> [String] {
    guard scopes.contains("*") else {
      var seen: Set<String> = []
      return scopes.filter { seen.insert($0).inserted }
    }
    var names: [String] = []
    for file in recordings {
      for name in try ScopeSplit.names(in: file) where !names.contains(name) { names.append(name) }
    }
    return names
  }

  /// Validates scope `name`'s records: the report and exit status, or `nil` (said in
  /// `diagnostics`) when no recording begins it.
  private func validate(_ name: String, copiesIn directory: URL, into diagnostics: inout String) throws
    -> (String, Int32)?
  {
    var copies: [String] = []
    var begun = 0
    for (index, file) in recordings.enumerated() {
      let folder = directory.appendingPathComponent("\(index)")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      let copy = folder.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
      let summary = try ScopeSplit.copy(scope: name, of: file, to: copy)
      begun += summary.begun
      if summary.leftOpen {
        diagnostics +=
          "\(file): warning: scope '\(name)' has no end: its records run to the end of the recording\n"
      }
      copies.append(copy.path)
    }
    guard begun > 0 else {
      let known = try recordings.flatMap { try ScopeSplit.names(in: $0) }
      diagnostics +=
        "tagscope: no scope '\(name)' in \(recordings.joined(separator: ", "))"
        + (known.isEmpty ? " (it has no scope)\n" : " (its scopes: \(known.joined(separator: ", ")))\n")
      return nil
    }
    let outcome = ValidateRunner.run(
      planPath: plan, recordings: copies, format: format, failOn: failOn, failOnUnreadable: failOnUnreadable,
      bySource: bySource, generated: generated)
    var report = outcome.output
    var messages = outcome.diagnostics
    for (copy, file) in zip(copies, recordings) {
      for (from, to) in [(copy, file), (Self.jsonInner(copy), Self.jsonInner(file))] {
        report = report.replacingOccurrences(of: from, with: to)
        messages = messages.replacingOccurrences(of: from, with: to)
      }
    }
    diagnostics += messages
    return (report, outcome.exitCode)
  }

  /// `text` as it stands inside a JSON string.
  private static func jsonInner(_ text: String) -> String {
    String(JSONText.quoted(text).dropFirst().dropLast())
  }
}
