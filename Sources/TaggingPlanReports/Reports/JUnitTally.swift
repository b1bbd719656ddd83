import TaggingPlan

/// What the JUnit report keeps of the violations, taken one at a time: for each coverage item and
/// for the unplanned tags and the provider rules outside the plan, counts and the first
/// ``JUnitReport/messagesPerFailure`` messages. Its memory is bounded by the plan, whatever the
/// number of violations, so a streamed run keeps none of them.
struct JUnitTally {
  /// What one violation contributes to the report.
  struct Noted {
    var severity: Severity
    var rule: ViolationRule
    var seq: UInt64
    var message: String
    /// The record's site (`file:line from source`), when known.
    var place: String?

    /// `rec.jsonl:12 #7 [error] wrong-name: message`.
    var line: String {
      (place.map { "\($0) " } ?? "") + "#\(seq) [\(severity.rawValue)] \(rule.rawValue): \(message)"
    }

    /// `, first at rec.jsonl:12 (#7): message`.
    var first: String { ", first\(place.map { " at \($0)" } ?? "") (#\(seq)): \(message)" }
  }

  /// A count of violations and the first of them.
  struct Listing {
    var count = 0
    var listed: [Noted] = []

    mutating func add(_ noted: Noted) {
      count += 1
      if listed.count < JUnitReport.messagesPerFailure { listed.append(noted) }
    }

    /// The listed messages one per line, then `… and N more`.
    var messages: String {
      var lines = listed.map(\.line)
      if count > listed.count { lines.append("… and \(count - listed.count) more") }
      return lines.joined(separator: "\n")
    }
  }

  /// The violations of one coverage item.
  struct Item {
    var found = Listing()
    var firstFailing: Noted?
  }

  /// The violations outside coverage items (unplanned tags, or provider rules), split at `failOn`.
  struct Group {
    var failing = Listing()
    var others = Listing()
  }

  let failOn: Severity
  private(set) var items: [Item]
  private(set) var unplanned = Group()
  private(set) var unattached = Group()
  /// Every violation added.
  private(set) var total = 0
  /// The violations added at or above `failOn`.
  private(set) var failing = 0

  /// A tally for a plan with `planned` coverage items, failing at `failOn`.
  init(planned: Int, failOn: Severity) {
    self.failOn = failOn
    items = Array(repeating: Item(), count: planned)
  }

  /// Adds a violation found at `site`.
  mutating func add(_ violation: PlanViolation, at site: RecordSite?) {
    total += 1
    let noted = Noted(
      severity: violation.severity, rule: violation.rule, seq: violation.seq, message: violation.message,
      place: site?.description)
    let failing = violation.severity >= failOn
    if failing { self.failing += 1 }
    if let item = violation.coverageItem, items.indices.contains(item) {
      items[item].found.add(noted)
      if failing && items[item].firstFailing == nil { items[item].firstFailing = noted }
    } else if violation.rule == .unplannedTag {
      if failing { unplanned.failing.add(noted) } else { unplanned.others.add(noted) }
    } else {
      if failing { unattached.failing.add(noted) } else { unattached.others.add(noted) }
    }
  }
}
