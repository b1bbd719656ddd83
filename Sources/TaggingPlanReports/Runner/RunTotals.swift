import TaggingPlan
import TagscopeRecording

extension ValidateRunner {
  /// What a validation run keeps of each recording besides its violations: headers, unreadable
  /// lines, `seq` anomalies and counts, sites and per-source totals.
  struct RunTotals {
    private(set) var headers: [ReportMeta.Recording] = []
    private(set) var problems: [RecordingProblem] = []
    private(set) var readFailures: [RecordingProblem] = []
    private(set) var anomalies: [RecordingProblem] = []
    private(set) var sequence = SequenceCheck.Counts()
    private(set) var sites: [RecordSite] = []
    private(set) var sources: [SourceTotals] = []

    /// Unfinished funnels noted one by one per recording; the rest are counted.
    static let unfinishedNoteLimit = 20

    /// Adds the summary of the recording at `path`, noting its warnings (newer version, `seq`
    /// anomalies, records the writer dropped) to `note`.
    mutating func add(_ summary: RecordingScanner.Summary, path: String, note: (String) -> Void) {
      headers.append(
        summary.header.map { ReportMeta.Recording(file: path, header: $0) }
          ?? ReportMeta.Recording(file: path))
      sites.append(contentsOf: summary.sites)
      SourceTotals.add(summary, to: &sources)
      problems.append(contentsOf: summary.problems)
      if let failure = summary.readFailure {
        problems.append(failure)
        readFailures.append(failure)
      }
      if let warning = summary.versionWarning { note("\(path): warning: \(warning)") }
      anomalies.append(contentsOf: summary.sequenceAnomalies)
      sequence += summary.sequence
      let located = summary.sequenceAnomalies.map(\.description)
      for line in SequenceReport.notes(path: path, located: located, counts: summary.sequence) { note(line) }
      let unfinished = summary.unfinishedFunnels
      for funnel in unfinished.prefix(Self.unfinishedNoteLimit) { note("\(path): note: \(funnel)") }
      if unfinished.count > Self.unfinishedNoteLimit {
        note(
          "\(path): note: \(unfinished.count - Self.unfinishedNoteLimit) more funnels unfinished at the end")
      }
      if summary.droppedByWriter > 0 {
        note("\(path): the writer dropped \(summary.droppedByWriter) records; coverage may be incomplete")
      }
    }

    /// The run's report, with `violations` and what `lines` covered, without its meta.
    func report(plan: Plan, violations: [PlanViolation], lines: LineValidator, files: [String])
      -> ValidationReport
    {
      var report = ValidationReport(
        plan: plan, violations: violations, coverage: lines.validator.coverage,
        records: lines.validator.records, problems: problems, sequenceAnomalies: anomalies,
        sequence: sequence,
        files: files, sites: sites, sources: sources)
      report.coverageBySource = lines.bySource
      report.readFailures = readFailures
      return report
    }
  }
}
