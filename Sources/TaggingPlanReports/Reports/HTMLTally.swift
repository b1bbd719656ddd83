import TaggingPlan

/// What the HTML report keeps of the violations, taken one at a time in the report's order: how
/// many there are of each severity and of each rule, the groups it shows (the first
/// ``HTMLReport/groupsPerRule`` of each rule, by severity, rule, tag, provider and plan line) with
/// their first ``HTMLReport/occurrencesPerGroup`` violations, the expected-vs-got comparison of
/// each shown group's call, and of the other groups only how many there are (their keys in a
/// ``CompactKeySet``). Its memory is bounded by the groups shown, the bytes of the other groups'
/// keys and the violations of one record, whatever the number of violations.
///
/// A shown group's comparison merges the violations about the same call (same provider and call,
/// or the same properties) in the record of the group's first violation: a record's violations
/// come together, so they are all at hand while it is the current one. Records are told apart by
/// their site (file and line); violations without a site by their `seq` changing.
struct HTMLTally {
  /// What a group's violations share.
  struct Key: Hashable {
    var severity: Severity
    var rule: ViolationRule
    var tag: String
    var provider: String?
    var planLine: Int?
  }

  /// A group the report shows.
  struct Group {
    var key: Key
    var count: Int
    /// Its first violations, each with its record's site when known.
    var occurrences: [(violation: PlanViolation, site: RecordSite?)]
    /// The call of its first violation in its record, if the violation is about one: a table
    /// shown once, however many groups share it.
    var table: Table?
    /// Its first violation's comparison, merged with the others about the same call in that record.
    var comparison: ExpectationComparison
  }

  /// A call in one record: what a comparison shown once is about.
  struct Table: Hashable {
    /// The record's ordinal among the records with violations.
    var record: Int
    var subject: PlanViolation.Subject
  }

  /// The shown groups of each rule, in order of first appearance.
  private(set) var shown: [ViolationRule: [Group]] = [:]
  private var positions: [Key: Int] = [:]
  /// The groups of each rule not shown.
  private(set) var hidden: [ViolationRule: Int] = [:]
  private var hiddenKeys = CompactKeySet()
  /// The violations of each rule.
  private(set) var totals: [ViolationRule: Int] = [:]
  /// The current record: its ordinal, site and `seq`, its violations so far, and the shown groups
  /// first seen in it (rule and position), whose comparisons take its later violations.
  private var record = -1
  private var recordSite: RecordSite?
  private var recordSeq: UInt64?
  private var recordViolations: [PlanViolation] = []
  private var recordGroups: [(subject: PlanViolation.Subject, rule: ViolationRule, position: Int)] = []
  /// The violations of each severity.
  private(set) var severities = SeverityCounts()

  /// An empty tally.
  init() {}

  /// The tally of `report`'s violations, each at its site.
  init(_ report: ValidationReport) {
    for (violation, site) in zip(report.violations, report.violationSites()) {
      add(violation, at: site)
    }
  }

  /// Every violation added.
  var total: Int { severities.total }

  /// Counts `violation`, found in the record at `site`, keeping it when among the first of a
  /// shown group.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    severities.count(violation.severity)
    totals[violation.rule, default: 0] += 1
    enter(violation, at: site)
    // The shown groups first seen earlier in this record take it into their comparison.
    let subject = violation.subject
    if let subject {
      for group in recordGroups where group.subject == subject {
        shown[group.rule]?[group.position].comparison.absorb(violation.comparison, title: subject.title)
      }
    }
    let key = Key(
      severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider,
      planLine: violation.planLine)
    if let position = positions[key] {
      shown[key.rule]?[position].count += 1
      if let count = shown[key.rule]?[position].occurrences.count, count < HTMLReport.occurrencesPerGroup {
        shown[key.rule]?[position].occurrences.append((violation, site))
      }
    } else if shown[key.rule, default: []].count < HTMLReport.groupsPerRule {
      let position = shown[key.rule, default: []].count
      positions[key] = position
      shown[key.rule, default: []].append(
        Group(
          key: key, count: 1, occurrences: [(violation, site)],
          table: subject.map { Table(record: record, subject: $0) },
          comparison: Self.comparison(of: violation, about: subject, among: recordViolations)))
      if let subject { recordGroups.append((subject, key.rule, position)) }
    } else if hiddenKeys.insertKey({ Self.write(key, into: &$0) }) {
      hidden[key.rule, default: 0] += 1
    }
    recordViolations.append(violation)
  }

  /// A violation at `site`: a new record when its site (or, without one, its `seq`) changes.
  private mutating func enter(_ violation: PlanViolation, at site: RecordSite?) {
    let same = site == nil ? recordSite == nil && recordSeq == violation.seq : site == recordSite
    guard !same else { return }
    record += 1
    recordSite = site
    recordSeq = violation.seq
    recordViolations.removeAll(keepingCapacity: true)
    recordGroups.removeAll(keepingCapacity: true)
  }

  /// `violation`'s comparison merged with those of the earlier violations of its record (`among`)
  /// about the same call (`subject`), in order.
  private static func comparison(
    of violation: PlanViolation, about subject: PlanViolation.Subject?, among earlier: [PlanViolation]
  ) -> ExpectationComparison {
    guard let subject else { return violation.comparison }
    var merged: ExpectationComparison?
    for other in earlier + [violation] where other.subject == subject {
      if merged == nil {
        merged = other.comparison
      } else {
        merged?.absorb(other.comparison, title: subject.title)
      }
    }
    return merged ?? violation.comparison
  }

  /// A hidden group's key as bytes (``CompactKeySet/appendPart(_:to:)``), the tag last.
  private static func write(_ key: Key, into bytes: inout [UInt8]) {
    CompactKeySet.appendPart(key.severity.rawValue, to: &bytes)
    CompactKeySet.appendPart(key.rule.rawValue, to: &bytes)
    CompactKeySet.appendPart(key.provider, to: &bytes)
    CompactKeySet.appendPart(key.planLine.map(String.init), to: &bytes)
    bytes.append(contentsOf: key.tag.utf8)
  }

  /// Whether any violation added is at or above `threshold`.
  func fails(at threshold: Severity) -> Bool { severities.fails(at: threshold) }
}
