import AnalyticsHub
import TagscopeRecording

/// The comparison of the violations about one call (or one tag's properties): shown once, each
/// violation still counted on its own.
public struct ComparisonGroup: Sendable, Hashable {
  /// The rows of all of them, each row once.
  public var comparison: ExpectationComparison
  /// The positions, in the violations grouped, of those it shows (in order).
  public var members: [Int]

  /// A group.
  public init(comparison: ExpectationComparison, members: [Int]) {
    self.comparison = comparison
    self.members = members
  }
}

extension ExpectationComparison {
  /// `violations` grouped by what they are about: those about the same call (same record,
  /// provider and call received, a renamed one included, or the same expected call not received)
  /// or the same record's properties make one comparison, its rows those of each (a row repeated
  /// is shown once, marked if any marks it; one `call` row), titled by the call; the others one
  /// each. Groups are in the order of their first violation.
  public static func grouped(_ violations: [PlanViolation]) -> [ComparisonGroup] {
    var groups: [ComparisonGroup] = []
    var byKey: [PlanViolation.Subject: Int] = [:]
    for (index, violation) in violations.enumerated() {
      let subject = violation.subject
      guard let subject, let position = byKey[subject] else {
        if let subject { byKey[subject] = groups.count }
        groups.append(ComparisonGroup(comparison: violation.comparison, members: [index]))
        continue
      }
      groups[position].members.append(index)
      groups[position].comparison.absorb(violation.comparison, title: subject.title)
    }
    return groups
  }

  /// Adds `other`'s rows not already here (an equal row marks the one here if it is marked).
  /// The call is one row: a `call` row naming the same call received as one here is merged into
  /// it when either expects nothing of it (`—`, a provider rule's) or both identify it, the first
  /// expectation kept; a call that two expectations disagree on (one renamed, one not) keeps both.
  package mutating func absorb(_ other: ExpectationComparison, title: String?) {
    if other.title != self.title, let title { self.title = title }
    if planLine == nil { planLine = other.planLine }
    for row in other.rows {
      if row.field == "call",
        let call = rows.firstIndex(where: {
          $0.field == "call" && $0.actual == row.actual
            && ($0.expected == "—" || row.expected == "—" || $0.expected == row.expected
              || (!$0.differs && !row.differs))
        })
      {
        if rows[call].expected == "—" { rows[call].expected = row.expected }
        rows[call].differs = rows[call].differs || row.differs
      } else if let same = rows.firstIndex(where: {
        $0.field == row.field && $0.expected == row.expected && $0.actual == row.actual
      }) {
        rows[same].differs = rows[same].differs || row.differs
      } else {
        rows.append(row)
      }
    }
  }
}

extension PlanViolation {
  /// What a violation is about, for grouping: a record's call (or an expected call it lacks), or
  /// its properties.
  package struct Subject: Hashable {
    var seq: UInt64
    var provider: String?
    var call: CallDescription?
    var expected: String?
    /// The merged comparison's title (`firebase purchase`, `properties of playPodcast`).
    package var title: String? {
      if let call, let provider { return "\(provider) \(callLabel(call))" }
      if let provider, let expected { return "\(provider) \(expected)" }
      return provider == nil ? "properties" : nil
    }

    package static func == (lhs: Subject, rhs: Subject) -> Bool {
      lhs.seq == rhs.seq && lhs.provider == rhs.provider && lhs.expected == rhs.expected
        && lhs.call == rhs.call
    }

    package func hash(into hasher: inout Hasher) {
      hasher.combine(seq)
      hasher.combine(provider)
      hasher.combine(expected)
      hasher.combine(call?.name)
      hasher.combine(call?.method)
    }
  }

  /// `nil` for a violation grouped with no other.
  package var subject: Subject? {
    switch evidence {
    case .property:
      return Subject(seq: seq, provider: nil, call: nil, expected: nil)
    case .call(let expected, let output):
      // A renamed call's violations share the table of that call's other violations.
      if let matched = expected.counterpart(in: output)?.call {
        return Subject(seq: seq, provider: output.provider, call: matched, expected: nil)
      }
      return Subject(
        seq: seq, provider: output.provider, call: nil, expected: expected.isNone ? "no call" : expected.label
      )
    case .providerRule(let rule, let output):
      guard let index = rule.callIndex, output.calls.indices.contains(index) else { return nil }
      return Subject(seq: seq, provider: output.provider, call: output.calls[index], expected: nil)
    case .catalogueParam(let provider, let call, _, _, _, _, _, _):
      return Subject(seq: seq, provider: provider, call: call, expected: nil)
    case .unplanned, .screen, .unplannedCall, .journey, nil:
      return nil
    case .personalData:
      // Its table compares with what the plan allows (`allowed (plan pii)`), not expects: alone.
      return nil
    }
  }
}
