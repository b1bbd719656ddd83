import TaggingPlan
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

/// Where a record with violations is in its recording.
public struct RecordSite: Sendable, Hashable, CustomStringConvertible {
  /// The recording's path (`-` for standard input).
  public var file: String
  /// The record's line in the recording (1-based; the header is line 1).
  public var line: Int
  public var seq: UInt64
  /// The record's `time`, in milliseconds since 1970.
  public var timeMilliseconds: Int64
  /// The record's `source` (from `tagscope listen`), if any.
  public var source: String?
  /// The index of the record's first violation in the report's `violations`.
  public var firstViolation: Int

  /// A site.
  public init(
    file: String, line: Int, seq: UInt64, timeMilliseconds: Int64, source: String?, firstViolation: Int
  ) {
    self.file = file
    self.line = line
    self.seq = seq
    self.timeMilliseconds = timeMilliseconds
    self.source = source
    self.firstViolation = firstViolation
  }

  /// `2026-11-21T10:00:04.210Z`.
  public var timeText: String { ISO8601Timestamp.string(milliseconds: timeMilliseconds) }

  /// `recording.jsonl:42`.
  /// `file:line`, and the device it came from (`file:line from Podcasts@iPhone 15`) for `listen`'s
  /// records: the text and JUnit reports name where each violation is.
  public var description: String { Self.description(file: file, line: line, source: source) }

  /// `rec.jsonl:12`, and ` from SOURCE` when there is one: how reports name a record's place.
  static func description(file: String, line: Int, source: String?) -> String {
    "\(file):\(line)" + (source.map { " from \($0)" } ?? "")
  }
}

/// How many records one `source` sent and how many violations they had.
public struct SourceTotals: Sendable, Hashable {
  /// The `source` (`nil`: records without one, written by the app's own recorder).
  public var source: String?
  public var records = 0
  public var violations = 0

  /// Nothing counted yet.
  public init(source: String?, records: Int = 0, violations: Int = 0) {
    self.source = source
    self.records = records
    self.violations = violations
  }

  /// Adds one recording's totals to a run's.
  static func add(_ summary: RecordingScanner.Summary, to totals: inout [SourceTotals]) {
    for part in [summary.unsourced] + summary.sourced where part.records > 0 {
      if let index = totals.firstIndex(where: { $0.source == part.source }) {
        totals[index].records += part.records
        totals[index].violations += part.violations
      } else if part.source == nil {
        totals.insert(part, at: 0)
      } else {
        totals.append(part)
      }
    }
  }
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
  /// Unreadable recording lines, skipped, and the read errors that stopped a recording early.
  public var problems: [RecordingProblem]
  /// The read errors among ``problems``: each stopped its recording before its end (exit 2).
  public var readFailures: [RecordingProblem] = []
  /// Records whose `seq` repeats, goes backwards or starts again within their source (at most
  /// ``RecordingScanner/Summary/anomalyLimit`` per recording); they are validated in file order.
  public var sequenceAnomalies: [RecordingProblem]
  /// Every `seq` anomaly (and restart) counted, over all recordings.
  public var sequence: SequenceCheck.Counts
  /// The recordings validated, in order.
  public var files: [String]
  /// Where each record with violations is (file, line, seq, time, source), in record order; its
  /// violations are `violations[site.firstViolation...]` up to the next site's. Empty when the
  /// report was built from records in memory.
  public var sites: [RecordSite]
  /// Records and violations per `source` (records without one first, when there are some).
  public var sources: [SourceTotals]
  /// With `--by-source`: each source's own coverage (records without a source by their file, as
  /// `(file.jsonl)`), in the order first seen; `nil` otherwise.
  public var coverageBySource: [(source: String, coverage: Coverage)]?
  /// When and by what the report was made, the plan and each recording's header; `nil` for a
  /// report built from records in memory (the reports then leave it out).
  public var meta: ReportMeta?
  /// Each provider call's fate on the wire, when the recordings hold in-app and wire records
  /// (``DeliverySection``); `nil` otherwise, and the reports leave it out.
  public var delivery: DeliverySection?

  /// A report.
  public init(
    plan: Plan, violations: [PlanViolation], coverage: Coverage, records: Int,
    problems: [RecordingProblem] = [], sequenceAnomalies: [RecordingProblem] = [],
    sequence: SequenceCheck.Counts = SequenceCheck.Counts(), files: [String] = [], sites: [RecordSite] = [],
    sources: [SourceTotals] = []
  ) {
    self.files = files
    self.sites = sites
    self.sources = sources
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

  /// The site of `violations[index]`, if known.
  public func site(ofViolationAt index: Int) -> RecordSite? {
    // The last site starting at or before `index`.
    var low = 0
    var high = sites.count
    while low < high {
      let middle = (low + high) / 2
      if sites[middle].firstViolation <= index { low = middle + 1 } else { high = middle }
    }
    return low > 0 ? sites[low - 1] : nil
  }

  /// The site of each violation, aligned with ``violations`` (`nil` where unknown).
  func violationSites() -> [RecordSite?] {
    var result = [RecordSite?](repeating: nil, count: violations.count)
    for (position, site) in sites.enumerated() {
      let end = position + 1 < sites.count ? sites[position + 1].firstViolation : violations.count
      for index in site.firstViolation..<max(site.firstViolation, min(end, violations.count)) {
        result[index] = site
      }
    }
    return result
  }

  /// Whether any violation is at or above `threshold` (the CLI's `--fail-on`).
  public func fails(at threshold: Severity) -> Bool {
    violations.contains { $0.severity >= threshold }
  }
}
