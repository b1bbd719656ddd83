import TagscopeRecording

/// A line of a recording that could not be read; reported and skipped.
public struct RecordingProblem: Sendable, Hashable, CustomStringConvertible {
  public var file: String
  public var line: Int
  public var message: String

  /// A problem.
  public init(file: String, line: Int, message: String) {
    self.file = file
    self.line = line
    self.message = message
  }

  /// `file:line: message`.
  public var description: String { "\(file):\(line): \(message)" }
}

/// The outcome of validating recordings against a plan: every violation, the coverage, how many
/// records were checked and which lines could not be read.
public struct ValidationReport: Sendable {
  public var plan: Plan
  /// Violations in record order.
  public var violations: [PlanViolation]
  public var coverage: Coverage
  /// Records checked.
  public var records: Int
  /// Unreadable recording lines, skipped.
  public var problems: [RecordingProblem]
  /// Records whose `seq` repeats, goes backwards or starts again within their source (at most
  /// ``RecordingScanner/Summary/anomalyLimit`` per recording); they are validated in file order.
  public var sequenceAnomalies: [RecordingProblem]
  /// Every `seq` anomaly (and restart) counted, over all recordings.
  public var sequence: SequenceCheck.Counts

  /// A report.
  public init(
    plan: Plan, violations: [PlanViolation], coverage: Coverage, records: Int,
    problems: [RecordingProblem] = [], sequenceAnomalies: [RecordingProblem] = [],
    sequence: SequenceCheck.Counts = SequenceCheck.Counts()
  ) {
    self.plan = plan
    self.violations = violations
    self.coverage = coverage
    self.records = records
    self.problems = problems
    self.sequenceAnomalies = sequenceAnomalies
    self.sequence = sequence
  }

  /// How many violations have `severity`.
  public func count(_ severity: Severity) -> Int {
    violations.reduce(0) { $0 + ($1.severity == severity ? 1 : 0) }
  }

  /// Whether any violation is at or above `threshold` (the CLI's `--fail-on`).
  public func fails(at threshold: Severity) -> Bool {
    violations.contains { $0.severity >= threshold }
  }
}

/// The output formats of `tagscope validate`.
public enum ReportFormat: String, Sendable, CaseIterable {
  case text
  case json
  case junit

  /// The report rendered in this format; JUnit counts as failures the violations at or above
  /// `failOn`.
  public func render(_ report: ValidationReport, failOn: Severity) -> String {
    switch self {
    case .text: return TextReport.render(report)
    case .json: return JSONReport.render(report)
    case .junit: return JUnitReport.render(report, failOn: failOn)
    }
  }
}
