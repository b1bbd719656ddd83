import ArgumentParser
import Foundation
import TaggingPlan
import TaggingPlanReports

extension ReportFormat: ExpressibleByArgument {}
extension Severity: ExpressibleByArgument {}

/// `tagscope validate --plan PLAN FILE… [--format text|json|junit|html] [--fail-on error|warning]
/// [--fail-on-unreadable] [--strict] [-o FILE]`.
struct Validate: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "validate",
    abstract: "Check recordings against a tagging plan (for CI).",
    discussion: """
      Prints the violations and the plan coverage (each planned item passed, failing, blocked or not seen; the JSON report gives each violation its recording file and line, its plan line, and what the plan expected beside what the record carried). Exit status: 0 when no violation is at or above \
      --fail-on, 1 when there is one, 2 for bad input (a plan that does not load, a recording that \
      cannot be read). Unreadable recording lines are reported on standard error and in the report \
      (JSON "problems", JUnit errors) and skipped; with --fail-on-unreadable (or --strict) they fail \
      the run (1). A recording whose reading fails part way is validated up to there, the error \
      one of the report's problems, and the run goes on with the next recording, then exits 2. A \
      plan given as a recording or a recording as the plan (the two swapped) is said so, exit 2. \
      -o FILE writes the report there instead of standard output: a new file, or a regular file \
      replaced once the report is complete; a symbolic link, FIFO or directory is refused (exit 2). \
      \(ExitStatusWords.usage)
      """)

  /// The arguments' shape, for the message when a plan and a recording are swapped.
  static let usage = "tagscope validate --plan PLAN RECORDING…"

  @Option(name: .long, help: "The tagging plan (YAML).")
  var plan: String

  @Argument(
    help: "Recording files (JSON Lines) or HAR captures (.har, see import-capture); - reads standard input.")
  var files: [String]

  @Option(
    name: .long,
    help:
      "Report format: text, json, junit or html (one self-contained page: coverage matrix, violations by rule with expected vs got, per-source totals)."
  )
  var format: ReportFormat = .text

  @Option(name: .customLong("fail-on"), help: "Lowest severity that fails: error or warning.")
  var failOn: Severity = .error

  @Flag(name: .customLong("fail-on-unreadable"), help: "Fail (1) when a recording line cannot be read.")
  var failOnUnreadable = false

  @Flag(help: "For CI: --fail-on warning and --fail-on-unreadable.")
  var strict = false

  @Flag(
    name: .customLong("by-source"),
    help: "Also report each source's own coverage (records from listen by device, others by file).")
  var bySource = false

  @Option(name: .shortAndLong, help: "Write the report to this file instead of standard output.")
  var output: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "Validate only the records of this UI test scope (the query API's scope/begin and scope/end lines); repeat it, or give '*' for every scope, with --format junit: one testsuite per scope.",
      valueName: "NAME"))
  var scope: [String] = []

  /// When the report says it was made: now, or `SOURCE_DATE_EPOCH` (seconds since 1970) when
  /// set, for reproducible reports.
  static var generated: Date {
    ProcessInfo.processInfo.environment["SOURCE_DATE_EPOCH"].flatMap(Double.init).map(
      Date.init(timeIntervalSince1970:)) ?? Date()
  }

  func validate() throws { try StandardInputArgument.checkReadOnce(files) }

  func run() throws {
    let captures = try files.map(CaptureInput.init)
    defer { for capture in captures { capture.remove() } }
    let files = captures.map(\.path)
    try FileShape.refuseMixUp(plans: [plan], recordings: files, usage: Self.usage)
    let destination: ReportDestination
    do { destination = try ReportDestination(path: output) } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    let threshold: Severity = strict ? .warning : failOn
    let unreadableFails = strict || failOnUnreadable
    if !scope.isEmpty {
      let outcome = ScopedValidation(
        plan: plan, recordings: files, scopes: scope, format: format, failOn: threshold,
        failOnUnreadable: unreadableFails, bySource: bySource, generated: Self.generated
      ).run()
      destination.handle.write(Data(outcome.output.utf8))
      do { try destination.finish(keep: !outcome.output.isEmpty) } catch {
        StandardError.write(outcome.diagnostics + "tagscope: \(error)\n")
        throw ExitCode(2)
      }
      StandardError.write(outcome.diagnostics)
      if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
      return
    }
    // A listen recording with in-app and wire records: each call's fate on the wire.
    let delivery = DeliveryAudit.section(of: files)
    // The JSON report is written as the violations are found, the JUnit, text and HTML ones from
    // their counts and first few: none keeps the violations.
    var outcome =
      switch format {
      case .json:
        ValidateRunner.runStreamingJSON(
          planPath: plan, recordings: files, failOn: threshold, failOnUnreadable: unreadableFails,
          bySource: bySource, generated: Self.generated, delivery: delivery, to: destination.handle)
      case .junit:
        ValidateRunner.runJUnit(
          planPath: plan, recordings: files, failOn: threshold, failOnUnreadable: unreadableFails,
          bySource: bySource, generated: Self.generated, delivery: delivery)
      case .text:
        ValidateRunner.runText(
          planPath: plan, recordings: files, failOn: threshold, failOnUnreadable: unreadableFails,
          bySource: bySource, generated: Self.generated)
      case .html:
        ValidateRunner.runHTML(
          planPath: plan, recordings: files, failOn: threshold, failOnUnreadable: unreadableFails,
          bySource: bySource, generated: Self.generated, delivery: delivery)
      }
    outcome.report?.delivery = delivery
    try outcome.writeOutput(to: destination.handle)
    do { try destination.finish(keep: outcome.report != nil) } catch {
      StandardError.write(outcome.diagnostics + "tagscope: \(error)\n")
      throw ExitCode(2)
    }
    StandardError.write(outcome.diagnostics)
    if outcome.exitCode != 0 { throw ExitCode(outcome.exitCode) }
  }
}
