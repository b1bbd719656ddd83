/// The plan's journey rules resolved to entry positions, so that a record finds its rules with
/// one lookup.
struct JourneyIndex: Sendable, Hashable {
  /// A funnel an entry is a step of, with the steps it is (ascending).
  struct FunnelRole: Sendable, Hashable {
    var funnel: Int
    var steps: [Int]
  }

  /// Per entry, the entries one of which must come before it (`after`), when it has the rule.
  var after: [[Int]?]
  /// Per entry, whether some entry's `after` names it (its last record is remembered).
  var isPredecessor: [Bool]
  /// Per entry, the funnels it is a step of.
  var roles: [[FunnelRole]]
  /// Per entry, whether a journey rule concerns it (its own rules, another's `after` naming it, a
  /// funnel step): else its records only count screen visits and sessions.
  var isRuled: [Bool]
  /// Per funnel, its coverage item.
  var funnelItems: [Int]
  /// Whether the plan has any journey rule (else records skip the journey check).
  var isActive: Bool

  /// An index of `entries` and `funnels`, whose coverage items start at `firstFunnelItem`.
  /// Names of no entry are left out (the loader reports them).
  init(entries: [PlanEntry], funnels: [Funnel], firstFunnelItem: Int) {
    var byName: [String: [Int]] = [:]
    for (position, entry) in entries.enumerated() { byName[entry.name, default: []].append(position) }
    after = entries.map { entry in entry.journey.after.map { $0.flatMap { byName[$0] ?? [] } } }
    isPredecessor = [Bool](repeating: false, count: entries.count)
    for case let predecessors? in after {
      for position in predecessors { isPredecessor[position] = true }
    }
    roles = [[FunnelRole]](repeating: [], count: entries.count)
    for (number, funnel) in funnels.enumerated() {
      var steps: [Int: [Int]] = [:]
      for (step, item) in funnel.steps.enumerated() {
        for position in byName[item.tag] ?? [] { steps[position, default: []].append(step) }
      }
      for (position, list) in steps { roles[position].append(FunnelRole(funnel: number, steps: list)) }
    }
    var isRuled = isPredecessor
    for position in entries.indices where !entries[position].journey.isEmpty || !roles[position].isEmpty {
      isRuled[position] = true
    }
    self.isRuled = isRuled
    funnelItems = funnels.indices.map { firstFunnelItem + $0 }
    isActive = !funnels.isEmpty || entries.contains { !$0.journey.isEmpty }
  }
}
