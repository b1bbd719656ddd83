import Foundation

extension ValidateRunner {
  /// Runs the validation of `recordings` against the plan at `planPath` for the HTML report,
  /// keeping no violation (see
  /// ``runHTML(plan:recordings:failOn:failOnUnreadable:bySource:generated:)``).
  public static func runHTML(
    planPath: String, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    withPlan(planPath, format: .html, failOn: failOn) { plan in
      runHTML(
        plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
        bySource: bySource, generated: generated)
    }
  }

  /// Runs the validation of `recordings` against `plan` for the HTML report: the same outcome and
  /// bytes as ``run(plan:recordings:format:failOn:failOnUnreadable:bySource:generated:)`` with
  /// `.html`, but each violation is let go once tallied (`HTMLTally`), so memory holds the
  /// coverage, the groups shown and a few bytes per other group whatever the number of
  /// violations. The outcome's report has no violations.
  ///
  /// When a shown group's call may also have been in an earlier record of the same `seq` (a
  /// second recording starting again at 1, or `seq` going backwards), the recordings are read a
  /// second time for the comparisons of those calls; standard input, which can be read only
  /// once, is then first copied to a temporary file (whenever it is one of the recordings).
  public static func runHTML(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool = false,
    bySource: Bool = false, generated: Date? = nil
  ) -> Outcome {
    runHTML(
      plan: plan, recordings: recordings, failOn: failOn, failOnUnreadable: failOnUnreadable,
      bySource: bySource, generated: generated, standardInput: .standardInput)
  }

  /// ``runHTML(plan:recordings:failOn:failOnUnreadable:bySource:generated:)`` reading `-` from
  /// `standardInput`.
  static func runHTML(
    plan: Plan, recordings: [String], failOn: Severity, failOnUnreadable: Bool, bySource: Bool,
    generated: Date?, standardInput: FileHandle
  ) -> Outcome {
    var spooled: String?
    if recordings.contains("-") {
      do { spooled = try spool(standardInput) } catch {
        return Outcome(
          exitCode: 2, diagnostics: "-: cannot copy standard input: \(error)\n", report: nil, format: .html,
          failOn: failOn)
      }
    }
    defer { if let spooled { try? FileManager.default.removeItem(atPath: spooled) } }
    var tally = HTMLTally()
    let run = tallying(
      plan: plan, lines: LineValidator(plan: plan, bySource: bySource), recordings: recordings, format: .html,
      failOn: failOn, generated: generated, standardInput: spooled
    ) { tally.add($0, at: $1) }
    switch run {
    case .failed(let outcome): return outcome
    case .scanned(let report, let diagnostics):
      if tally.needsRescan {
        rescan(plan: plan, bySource: bySource, recordings: recordings, standardInput: spooled, into: &tally)
      }
      var outcome = outcome(
        report, fails: tally.fails(at: failOn), failOnUnreadable: failOnUnreadable, diagnostics: diagnostics,
        format: .html, failOn: failOn)
      outcome.rendered = HTMLReport.render(report, tally: tally, failOn: failOn)
      return outcome
    }
  }

  /// Reads `recordings` again, making the comparisons `tally` marks (``HTMLTally/Rescan``) from
  /// every violation about their calls. A recording that cannot be opened again leaves them as
  /// the first reading made them.
  private static func rescan(
    plan: Plan, bySource: Bool, recordings: [String], standardInput: String?, into tally: inout HTMLTally
  ) {
    var rescan = HTMLTally.Rescan(tally)
    let quiet: (String) -> Void = { _ in }
    guard var opened = try? open(recordings, standardInput: standardInput, note: quiet) else { return }
    var lines = LineValidator(plan: plan, bySource: bySource)
    var totals = RunTotals()
    scan(recordings, opened: &opened, lines: &lines, totals: &totals, note: quiet) { _, found in
      for violation in found { rescan.add(violation) }
      found.removeAll(keepingCapacity: true)
    }
    rescan.finish(&tally)
  }

  /// Copies `handle` to its end into a temporary file; its path.
  private static func spool(_ handle: FileHandle) throws -> String {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-stdin-\(UUID().uuidString).jsonl")
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown)
    }
    do {
      let out = try FileHandle(forWritingTo: url)
      defer { try? out.close() }
      while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
        try out.write(contentsOf: chunk)
      }
    } catch {
      try? FileManager.default.removeItem(at: url)
      throw error
    }
    return url.path
  }
}
