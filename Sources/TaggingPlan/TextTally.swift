/// What the text report keeps of the violations, taken one at a time: how many there are of each
/// severity and, per group (severity, rule, tag, provider, in order of first appearance), its count
/// and the lines of its first ``TextReport/examples`` violations. Its memory is bounded by the
/// number of groups, whatever the number of violations, so a tallied run keeps none of them.
struct TextTally {
  /// Violations sharing severity, rule, tag and provider.
  struct Group {
    var severity: Severity
    var rule: ViolationRule
    var tag: String
    var provider: String?
    /// Every violation of the group.
    var count = 0
    /// The first violation's line (`rec.jsonl:12 #7 message`), apart: most groups of a run with
    /// many distinct tags have only one, and an array of one would cost an allocation more.
    fileprivate var first: String?
    /// The next violations' lines.
    fileprivate var next: [String] = []

    /// The first violations' lines (`rec.jsonl:12 #7 message`), at most ``TextReport/examples``.
    var examples: [String] { first.map { [$0] + next } ?? [] }

    fileprivate mutating func keep(_ line: String) {
      if first == nil { first = line } else { next.append(line) }
    }
  }

  private struct Key: Hashable {
    var severity: Severity
    var rule: ViolationRule
    var tag: String
    var provider: String?
  }

  /// The groups in order of first appearance.
  private(set) var groups: [Group] = []
  private var positions: [Key: Int] = [:]
  /// Violations added with severity error.
  private(set) var errors = 0
  /// Violations added with severity warning.
  private(set) var warnings = 0

  /// An empty tally.
  init() {}

  /// The tally of `report`'s violations, each at its site.
  init(_ report: ValidationReport) {
    for (violation, site) in zip(report.violations, report.violationSites()) {
      add(violation, at: site)
    }
  }

  /// Counts `violation`, found in the record at `site`, keeping its line when among its group's
  /// first.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    switch violation.severity {
    case .error: errors += 1
    case .warning: warnings += 1
    }
    let key = Key(
      severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider)
    let position: Int
    if let known = positions[key] {
      position = known
    } else {
      position = groups.count
      positions[key] = position
      groups.append(
        Group(severity: key.severity, rule: key.rule, tag: key.tag, provider: key.provider))
    }
    groups[position].count += 1
    if groups[position].count <= TextReport.examples {
      let place = site.map { "\($0) " } ?? ""
      groups[position].keep("\(place)#\(violation.seq) \(violation.message)")
    }
  }

  /// Whether any violation added is at or above `threshold`.
  func fails(at threshold: Severity) -> Bool {
    switch threshold {
    case .error: errors > 0
    case .warning: errors + warnings > 0
    }
  }
}
