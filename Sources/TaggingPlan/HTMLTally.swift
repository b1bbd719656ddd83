/// What the HTML report keeps of the violations, taken one at a time in the report's order: how
/// many there are of each severity and of each rule, the groups it shows (the first
/// ``HTMLReport/groupsPerRule`` of each rule, by severity, rule, tag, provider and plan line) with
/// their first ``HTMLReport/occurrencesPerGroup`` violations, the expected-vs-got comparison of
/// each shown group's call merged as the violations come, and of the other groups only how many
/// there are (their keys in a ``CompactKeySet``). Its memory is bounded by the groups shown and the
/// bytes of the other groups' keys, whatever the number of violations.
///
/// A shown group's comparison merges every violation about the same call (same `seq`, provider and
/// call), earlier ones included. Those of the same `seq` just before it are kept (up to
/// ``batchLimit``); when an earlier record with that `seq` may have had some (`seq` restarting
/// with a second recording, or going backwards), the comparison is marked to be made again by a
/// second reading (``needsRescan``, ``Rescan``).
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
  }

  /// The merged comparison of the violations about one call.
  struct Merge {
    var comparison: ExpectationComparison?
    /// Whether violations before the first kept may have been about the call too.
    var uncertain: Bool

    mutating func absorb(_ violation: PlanViolation, subject: PlanViolation.Subject) {
      if comparison == nil {
        comparison = violation.comparison
      } else {
        comparison?.absorb(violation.comparison, title: subject.title)
      }
    }
  }

  /// Violations of one `seq` kept, at most, to merge into a group shown from one of them.
  static let batchLimit = 1024
  /// Runs of increasing `seq` remembered, at most, to tell whether a `seq` was seen before.
  static let runLimit = 1024

  /// The shown groups of each rule, in order of first appearance.
  private(set) var shown: [ViolationRule: [Group]] = [:]
  private var positions: [Key: Int] = [:]
  /// The groups of each rule not shown.
  private(set) var hidden: [ViolationRule: Int] = [:]
  private var hiddenKeys = CompactKeySet()
  /// The violations of each rule.
  private(set) var totals: [ViolationRule: Int] = [:]
  /// The comparisons of the calls of shown groups' first violations.
  private(set) var merges: [PlanViolation.Subject: Merge] = [:]
  private var mergedSeqs: Set<UInt64> = []
  /// The violations of the current `seq` (`nil` once more than ``batchLimit``).
  private var batch: [PlanViolation]? = []
  /// Closed runs of strictly increasing `seq` (`nil` once more than ``runLimit``), and the current.
  private var runs: [ClosedRange<UInt64>]? = []
  private var run: ClosedRange<UInt64>?
  /// The violations of each severity.
  private(set) var severities = SeverityCounts()

  /// An empty tally.
  init() {}

  /// The tally of `report`'s violations, each at its site, its comparisons complete (read again
  /// from the report when ``needsRescan``).
  init(_ report: ValidationReport) {
    for (violation, site) in zip(report.violations, report.violationSites()) {
      add(violation, at: site)
    }
    guard needsRescan else { return }
    var rescan = Rescan(self)
    for violation in report.violations { rescan.add(violation) }
    rescan.finish(&self)
  }

  /// Every violation added.
  var total: Int { severities.total }

  /// Whether a shown group's comparison needs the violations read again (``Rescan``).
  var needsRescan: Bool { merges.values.contains { $0.uncertain } }

  /// Counts `violation`, found in the record at `site`, keeping it when among the first of a
  /// shown group.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    severities.count(violation.severity)
    totals[violation.rule, default: 0] += 1
    enter(violation.seq)
    let key = Key(
      severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider,
      planLine: violation.planLine)
    if let position = positions[key] {
      shown[key.rule]?[position].count += 1
      if let count = shown[key.rule]?[position].occurrences.count, count < HTMLReport.occurrencesPerGroup {
        shown[key.rule]?[position].occurrences.append((violation, site))
      }
    } else if shown[key.rule, default: []].count < HTMLReport.groupsPerRule {
      positions[key] = shown[key.rule, default: []].count
      shown[key.rule, default: []].append(Group(key: key, count: 1, occurrences: [(violation, site)]))
      if let subject = violation.subject, merges[subject] == nil { follow(subject) }
    } else if hiddenKeys.insertKey({ Self.write(key, into: &$0) }) {
      hidden[key.rule, default: 0] += 1
    }
    if mergedSeqs.contains(violation.seq), let subject = violation.subject {
      merges[subject]?.absorb(violation, subject: subject)
    }
    if batch != nil {
      batch?.append(violation)
      if let count = batch?.count, count > Self.batchLimit { batch = nil }
    }
  }

  /// A new violation's `seq`: the batch and runs follow it.
  private mutating func enter(_ seq: UInt64) {
    guard let current = run else {
      run = seq...seq
      return
    }
    if seq == current.upperBound { return }
    batch = []
    if seq > current.upperBound {
      run = current.lowerBound...seq
      return
    }
    runs?.append(current)
    if let count = runs?.count, count > Self.runLimit { runs = nil }
    run = seq...seq
  }

  /// Starts merging the violations about `subject` (the current `seq`'s): those of the batch so
  /// far, then each added.
  private mutating func follow(_ subject: PlanViolation.Subject) {
    let seen = runs.map { closed in closed.contains { $0.contains(subject.seq) } } ?? true
    var merge = Merge(comparison: nil, uncertain: seen || batch == nil)
    for earlier in batch ?? [] where earlier.subject == subject {
      merge.absorb(earlier, subject: subject)
    }
    merges[subject] = merge
    mergedSeqs.insert(subject.seq)
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

  /// The comparison shown for `group`: its first violation's, merged with the others about the
  /// same call.
  func comparison(of group: Group) -> ExpectationComparison {
    let first = group.occurrences[0].violation
    if let subject = first.subject, let merged = merges[subject]?.comparison { return merged }
    return first.comparison
  }

  /// The second reading of the violations, for the comparisons ``needsRescan`` marks: each made
  /// again from every violation about its call, in order.
  struct Rescan {
    private var merges: [PlanViolation.Subject: Merge]
    private let seqs: Set<UInt64>

    init(_ tally: HTMLTally) {
      merges = tally.merges.filter(\.value.uncertain).mapValues { _ in
        Merge(comparison: nil, uncertain: false)
      }
      seqs = Set(merges.keys.map(\.seq))
    }

    /// A violation read again, in the order of the first reading.
    mutating func add(_ violation: PlanViolation) {
      guard seqs.contains(violation.seq), let subject = violation.subject else { return }
      merges[subject]?.absorb(violation, subject: subject)
    }

    /// The tally with the comparisons made again.
    func finish(_ tally: inout HTMLTally) {
      for (subject, merge) in merges { tally.merges[subject] = merge }
    }
  }
}
