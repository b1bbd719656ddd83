/// Which planned tags and expectations passed, failed, were blocked or were not seen: the
/// checklist QA works through.
///
/// An item is *seen* when a record of its tag, on its screen, reached the provider with a status
/// other than `blocked` (so the plan could be checked against it). Each seen record either passes
/// the item (no violation attached to it) or breaks it (the rules it broke are remembered); a
/// record whose provider was `blocked` (no consent, provider disabled) only notes the reason. An
/// item broken by any record is failing: see ``CoverageState``.
public struct Coverage: Sendable, Hashable {
  /// The plan's items, in plan order.
  public let items: [CoverageItem]
  /// How many records covered each item (seen, whether they passed or not).
  public private(set) var counts: [Int]
  /// How many of those records broke the plan on each item.
  public private(set) var failures: [Int]
  /// How many items were seen at least once.
  public private(set) var seenCount = 0
  /// Per item, the rules its failing records broke.
  private var failingRules: [RuleMask]
  /// Per item, why its provider was blocked (distinct reasons, at most ``reasonLimit``).
  private var blockedReasons: [[String]]

  /// Distinct blocking reasons kept per item (recordings are untrusted input).
  static let reasonLimit = 4
  /// Characters kept of a blocking reason.
  static let reasonLength = 40

  /// Nothing seen yet.
  public init(items: [CoverageItem]) {
    self.items = items
    counts = [Int](repeating: 0, count: items.count)
    failures = counts
    failingRules = [RuleMask](repeating: RuleMask(), count: items.count)
    blockedReasons = [[String]](repeating: [], count: items.count)
  }

  /// Records that item `index` was seen and passed (no violation).
  public mutating func mark(_ index: Int) {
    mark(index, failing: RuleMask())
  }

  /// Records that item `index` was seen; `rules` are those the record broke on it (empty when it
  /// passed).
  public mutating func mark(_ index: Int, breaking rules: [ViolationRule]) {
    mark(index, failing: RuleMask(rules))
  }

  /// Records that item `index` was seen, failing `rules` (none: passed).
  mutating func mark(_ index: Int, failing rules: RuleMask) {
    guard items.indices.contains(index) else { return }
    if counts[index] == 0 { seenCount += 1 }
    counts[index] += 1
    if !rules.isEmpty {
      failures[index] += 1
      failingRules[index].formUnion(rules)
    }
  }

  /// Records that a record of item `index` found its provider blocked, for `reason` (`consent`,
  /// `disabled`; `nil` when the recording gives none).
  public mutating func markBlocked(_ index: Int, reason: String?) {
    guard items.indices.contains(index), blockedReasons[index].count < Self.reasonLimit else { return }
    let given = reason.flatMap { $0.isEmpty ? nil : $0 } ?? "no reason given"
    // A reason within the length in bytes is within it in characters: compared as it is, not cut
    // into a new string (what a replayed record's marks do again and again).
    let text = given.utf8.count <= Self.reasonLength ? given : String(given.prefix(Self.reasonLength))
    guard !blockedReasons[index].contains(text) else { return }
    blockedReasons[index].append(text)
  }

  /// Adds another coverage of the same plan (another recording of a multi-file run).
  public mutating func merge(_ other: Coverage) {
    for index in other.counts.indices where index < counts.count {
      if other.counts[index] > 0 {
        if counts[index] == 0 { seenCount += 1 }
        counts[index] += other.counts[index]
        failures[index] += other.failures[index]
        failingRules[index].formUnion(other.failingRules[index])
      }
      for reason in other.blockedReasons[index] {
        guard blockedReasons[index].count < Self.reasonLimit, !blockedReasons[index].contains(reason) else {
          continue
        }
        blockedReasons[index].append(reason)
      }
    }
  }

  /// Applies what one record did to the items it concerns.
  package mutating func apply(_ marks: some Collection<CoverageMark>) {
    for mark in marks {
      switch mark {
      case .seen(let item, let rules): self.mark(item, failing: rules)
      case .blocked(let item, let reason): markBlocked(item, reason: reason)
      }
    }
  }

  /// Whether item `index` was seen.
  public func isSeen(_ index: Int) -> Bool { counts[index] > 0 }

  /// The state of item `index`.
  public func state(at index: Int) -> CoverageState {
    if counts[index] > 0 {
      guard failures[index] > 0 else { return .passed }
      return .failing(rules: failingRules[index].rules, broken: failures[index], records: counts[index])
    }
    return blockedReasons[index].isEmpty ? .notSeen : .blocked(reasons: blockedReasons[index])
  }

  /// Every item's state, in plan order.
  public var states: [CoverageState] { items.indices.map(state(at:)) }

  /// How many items are in each state.
  public var stateCounts: CoverageCounts {
    var result = CoverageCounts()
    for index in items.indices {
      if counts[index] > 0 {
        if failures[index] == 0 { result.passed += 1 } else { result.failing += 1 }
      } else if blockedReasons[index].isEmpty {
        result.notSeen += 1
      } else {
        result.blocked += 1
      }
    }
    return result
  }

  /// The number of planned items.
  public var planned: Int { items.count }

  /// Items never seen (not seen, or only blocked), in plan order.
  public var missing: [CoverageItem] { items.indices.filter { counts[$0] == 0 }.map { items[$0] } }

  /// `34/41 passed, 3 failing, 2 blocked, 2 not seen` (states with no item left out).
  public var summary: String { "\(stateCounts.passed)/\(items.count) passed" + stateCounts.others }

  /// `30 passed, 4 failing, 7 not seen`: ``summary`` without the total, for a narrow header.
  public var shortSummary: String { "\(stateCounts.passed) passed" + stateCounts.others }
}

/// How many coverage items are in each state.
public struct CoverageCounts: Sendable, Hashable {
  public var passed = 0
  public var failing = 0
  public var blocked = 0
  public var notSeen = 0

  /// No item.
  public init() {}

  /// `, 3 failing, 2 blocked, 2 not seen`: the states other than passed that have items.
  var others: String {
    var text = ""
    if failing > 0 { text += ", \(failing) failing" }
    if blocked > 0 { text += ", \(blocked) blocked" }
    if notSeen > 0 { text += ", \(notSeen) not seen" }
    return text
  }
}

/// Where a coverage item stands.
public enum CoverageState: Sendable, Hashable, CustomStringConvertible {
  /// Seen, and every record of it passed (broke nothing on it).
  case passed
  /// Seen, and at least one record broke the plan on it: the rules broken, in ``ViolationRule``
  /// order, and how many of how many records broke it.
  case failing(rules: [ViolationRule], broken: Int, records: Int)
  /// No record of it yet.
  case notSeen
  /// Its records only ever found the provider blocked: the reasons (`consent`, `disabled`).
  case blocked(reasons: [String])

  /// The state without its details: `passed`, `failing`, `blocked`, `not-seen`.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case passed
    case failing
    case blocked
    case notSeen = "not-seen"
  }

  /// The state without its details.
  public var kind: Kind {
    switch self {
    case .passed: return .passed
    case .failing: return .failing
    case .notSeen: return .notSeen
    case .blocked: return .blocked
    }
  }

  /// `✓`, `✗`, `⊘` or `·`, the checklist's mark.
  public var symbol: String {
    switch self {
    case .passed: return "✓"
    case .failing: return "✗"
    case .blocked: return "⊘"
    case .notSeen: return "·"
    }
  }

  /// `passed`, `failing · 3 of 5 broke it (wrong-name, missing-param)`, `blocked (consent)`,
  /// `not seen`.
  public var description: String {
    switch self {
    case .passed: return "passed"
    case .failing(let rules, let broken, let records):
      return "failing · \(broken) of \(records) broke it (\(rules.map(\.rawValue).joined(separator: ", ")))"
    case .blocked(let reasons): return "blocked (\(reasons.joined(separator: ", ")))"
    case .notSeen: return "not seen"
    }
  }

  /// `✓ passed`, `✗ failing · 3 of 5 broke it (wrong-name)`, `⊘ blocked (consent)`, `· not seen`.
  public var label: String { "\(symbol) \(description)" }
}

/// What one record did to one coverage item, kept so an identical record can replay it.
package enum CoverageMark: Sendable, Hashable {
  /// Seen, breaking `rules` (none: passed).
  case seen(Int, RuleMask)
  /// Its provider was blocked, for this reason.
  case blocked(Int, String?)
}

/// A set of ``ViolationRule``s as bits.
package struct RuleMask: Sendable, Hashable {
  var bits: UInt32 = 0

  init() {}

  init(_ rules: some Sequence<ViolationRule>) {
    for rule in rules { insert(rule) }
  }

  var isEmpty: Bool { bits == 0 }

  mutating func insert(_ rule: ViolationRule) { bits |= 1 << UInt32(rule.ordinal) }

  mutating func formUnion(_ other: RuleMask) { bits |= other.bits }

  /// The rules, in ``ViolationRule`` order.
  var rules: [ViolationRule] {
    ViolationRule.allCases.filter { bits & (1 << UInt32($0.ordinal)) != 0 }
  }
}
