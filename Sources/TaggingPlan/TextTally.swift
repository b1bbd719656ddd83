/// What the text report keeps of the violations, taken one at a time: how many there are of each
/// severity and, per group (severity, rule, tag, provider, in order of first appearance), its count
/// and the lines of its first ``TextReport/examples`` violations. Its memory is bounded by the
/// number of groups, whatever the number of violations, so a tallied run keeps none of them; and a
/// group costs no object of its own: its key's bytes in a ``CompactKeySet``, its count and its
/// first line's bytes in shared buffers (the next lines, for the few groups with more, apart).
struct TextTally {
  /// Violations sharing severity, rule, tag and provider.
  struct Group {
    var severity: Severity
    var rule: ViolationRule
    var tag: String
    var provider: String?
    /// Every violation of the group.
    var count: Int
    /// The first violations' lines (`rec.jsonl:12 #7 message`), at most ``TextReport/examples``.
    var examples: [String]
  }

  /// The groups' keys (severity, rule, provider, tag), numbered in order of first appearance.
  private var keys = CompactKeySet()
  /// Each group's count.
  private var counts: [Int] = []
  /// The first lines' bytes, one after the other, and where each group's ends.
  private var firstLines: [UInt8] = []
  private var firstEnds: [Int] = []
  /// The next lines of the groups that have some.
  private var nextLines: [Int: [String]] = [:]
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

  /// The groups in order of first appearance, each made when read.
  var groups: LazyMapCollection<Range<Int>, Group> { counts.indices.lazy.map(group(at:)) }

  /// Counts `violation`, found in the record at `site`, keeping its line when among its group's
  /// first.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    switch violation.severity {
    case .error: errors += 1
    case .warning: warnings += 1
    }
    let (index, inserted) = keys.index { bytes in
      bytes.append(contentsOf: violation.severity.rawValue.utf8)
      bytes.append(0xFF)
      bytes.append(contentsOf: violation.rule.rawValue.utf8)
      bytes.append(0xFF)
      if let provider = violation.provider {
        bytes.append(contentsOf: provider.utf8)
      } else {
        bytes.append(0xFE)
      }
      bytes.append(0xFF)
      bytes.append(contentsOf: violation.tag.utf8)
    }
    if inserted { counts.append(0) }
    counts[index] += 1
    guard counts[index] <= TextReport.examples else { return }
    let line = (site.map { "\($0) " } ?? "") + "#\(violation.seq) \(violation.message)"
    if inserted {
      firstLines.append(contentsOf: line.utf8)
      firstEnds.append(firstLines.count)
    } else {
      nextLines[index, default: []].append(line)
    }
  }

  /// Group number `index`, decoded from its key.
  func group(at index: Int) -> Group {
    let parts = keys.key(at: index).split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false)
    let text = { (part: Int) in String(decoding: parts[part], as: UTF8.self) }
    let start = index == 0 ? 0 : firstEnds[index - 1]
    let first = String(decoding: firstLines[start..<firstEnds[index]], as: UTF8.self)
    return Group(
      severity: Severity(rawValue: text(0)) ?? .error,
      rule: ViolationRule(rawValue: text(1)) ?? .unplannedTag,
      tag: text(3), provider: parts[2].elementsEqual([0xFE]) ? nil : text(2), count: counts[index],
      examples: [first] + (nextLines[index] ?? []))
  }

  /// Whether any violation added is at or above `threshold`.
  func fails(at threshold: Severity) -> Bool {
    switch threshold {
    case .error: errors > 0
    case .warning: errors + warnings > 0
    }
  }
}
