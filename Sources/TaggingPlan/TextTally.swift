/// What the text report keeps of the violations, taken one at a time: how many there are of each
/// severity and, per group (severity, rule, tag, provider, in order of first appearance), its count
/// and the lines of its first ``TextReport/examples`` violations. Its memory is bounded by the
/// number of groups, whatever the number of violations, so a tallied run keeps none of them; and a
/// group costs no object of its own: its key's bytes in a ``CompactKeySet``, its count and its
/// first line (record place, line, `seq`, message) in shared buffers (the next lines, for the few
/// groups with more, apart).
struct TextTally {
  /// A recording and the source of a record there.
  private struct Place: Hashable {
    var file: String
    var source: String?
  }

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
  /// Each group's first line: its record's place (a number in `places`, `-1` for none), line and
  /// `seq`, and its message, the messages' bytes one after the other (`firstEnds`: where each ends).
  private var firstPlaces: [Int32] = []
  private var firstRecordLines: [Int] = []
  private var firstSeqs: [UInt64] = []
  private var firstMessages: [UInt8] = []
  private var firstEnds: [Int] = []
  /// The recordings and sources of the records of first lines, each once (a run has few).
  private var places: [Place] = []
  private var placeNumbers: [Place: Int32] = [:]
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
    guard inserted else {
      nextLines[index, default: []].append(Self.line(site, violation.seq, violation.message))
      return
    }
    firstPlaces.append(site.map { number(of: Place(file: $0.file, source: $0.source)) } ?? -1)
    firstRecordLines.append(site?.line ?? 0)
    firstSeqs.append(violation.seq)
    firstMessages.append(contentsOf: violation.message.utf8)
    firstEnds.append(firstMessages.count)
  }

  /// `rec.jsonl:12 #7 message`.
  private static func line(_ site: RecordSite?, _ seq: UInt64, _ message: String) -> String {
    (site.map { "\($0) " } ?? "") + "#\(seq) \(message)"
  }

  private mutating func number(of place: Place) -> Int32 {
    if let known = placeNumbers[place] { return known }
    let number = Int32(places.count)
    places.append(place)
    placeNumbers[place] = number
    return number
  }

  /// Group number `index`, decoded from its key.
  func group(at index: Int) -> Group {
    let parts = keys.key(at: index).split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false)
    let text = { (part: Int) in String(decoding: parts[part], as: UTF8.self) }
    let start = index == 0 ? 0 : firstEnds[index - 1]
    let place = firstPlaces[index] < 0 ? nil : places[Int(firstPlaces[index])]
    let site = place.map {
      RecordSite(
        file: $0.file, line: firstRecordLines[index], seq: firstSeqs[index], timeMilliseconds: 0,
        source: $0.source,
        firstViolation: 0)
    }
    let message = String(decoding: firstMessages[start..<firstEnds[index]], as: UTF8.self)
    let first = Self.line(site, firstSeqs[index], message)
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
