import TaggingPlan

/// What the text report keeps of the violations, taken one at a time: how many there are of each
/// severity and, per group (severity, rule, tag, provider, in order of first appearance), its count
/// and the lines of its first ``TextReport/examples`` violations. Its memory is bounded by the
/// number of groups, whatever the number of violations, so a tallied run keeps none of them; and a
/// group costs no object of its own: its key's bytes in a ``CompactKeySet``, its count, and its
/// lines (each its record's place, line and `seq` and its message) in shared buffers.
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
  /// Each group's first line (a number in the lines below).
  private var firstLines: [Int32] = []
  /// A line kept: its record's place (a number in `places`, `-1` for none), line and `seq`, the
  /// next line of its group (`-1`: none), and where its message ends in `messages`.
  private struct Line {
    var number: Int
    var seq: UInt64
    var messageEnd: Int
    var place: Int32
    var next: Int32
  }

  /// The lines kept, in the order added, and their messages' bytes one after the other.
  private var lines: [Line] = []
  private var messages: [UInt8] = []
  /// The recordings and sources of the records of lines kept, each once (a run has few).
  private var places = IDTable<Place>()
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

  /// The groups in order of first appearance, each made when read.
  var groups: LazyMapCollection<Range<Int>, Group> { counts.indices.lazy.map(group(at:)) }

  /// Counts `violation`, found in the record at `site`, keeping its line when among its group's
  /// first.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    severities.count(violation.severity)
    let (index, inserted) = keys.index { bytes in
      CompactKeySet.appendPart(violation.severity.rawValue, to: &bytes)
      CompactKeySet.appendPart(violation.rule.rawValue, to: &bytes)
      CompactKeySet.appendPart(violation.provider, to: &bytes)
      bytes.append(contentsOf: violation.tag.utf8)
    }
    if inserted { counts.append(0) }
    counts[index] += 1
    guard counts[index] <= TextReport.examples else { return }
    let line = Int32(lines.count)
    messages.append(contentsOf: violation.message.utf8)
    lines.append(
      Line(
        number: site?.line ?? 0, seq: violation.seq, messageEnd: messages.count,
        place: site.map { places.id(Place(file: $0.file, source: $0.source)) } ?? -1, next: -1))
    if inserted {
      firstLines.append(line)
    } else {
      // At most ``TextReport/examples`` lines to walk.
      var last = Int(firstLines[index])
      while lines[last].next >= 0 { last = Int(lines[last].next) }
      lines[last].next = line
    }
  }

  /// Line number `index` as the report prints it: `rec.jsonl:12 from phone #7 message`.
  private func line(_ index: Int) -> String {
    let line = lines[index]
    let start = index == 0 ? 0 : lines[index - 1].messageEnd
    let message = String(decoding: messages[start..<line.messageEnd], as: UTF8.self)
    let place = line.place < 0 ? nil : places[line.place]
    let site = place.map { RecordSite.description(file: $0.file, line: line.number, source: $0.source) }
    return (site.map { "\($0) " } ?? "") + "#\(line.seq) \(message)"
  }

  /// Group number `index`, decoded from its key.
  private func group(at index: Int) -> Group {
    let parts = keys.key(at: index).split(separator: 0xFF, maxSplits: 3, omittingEmptySubsequences: false)
    let text = { (part: Int) in String(decoding: parts[part], as: UTF8.self) }
    var examples: [String] = []
    var next = Int(firstLines[index])
    while next >= 0 {
      examples.append(line(next))
      next = Int(lines[next].next)
    }
    return Group(
      severity: Severity(rawValue: text(0)) ?? .error,
      rule: ViolationRule(rawValue: text(1)) ?? .unplannedTag,
      tag: text(3), provider: parts[2].elementsEqual([0xFE]) ? nil : text(2), count: counts[index],
      examples: examples)
  }

  /// Whether any violation added is at or above `threshold`.
  func fails(at threshold: Severity) -> Bool { severities.fails(at: threshold) }
}
