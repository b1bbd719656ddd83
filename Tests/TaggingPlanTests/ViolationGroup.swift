@testable import TaggingPlan
@testable import TaggingPlanReports

/// Violations sharing severity, rule, tag and provider (and plan line, for the HTML report), as the
/// reports listed them before tallying (``HTMLTally``, ``TextTally``): what ``LegacyHTMLReport``
/// groups by.
struct ViolationGroup {
  var severity: Severity
  var rule: ViolationRule
  var tag: String
  var provider: String?
  /// The plan line, when grouped by it.
  var planLine: Int?
  /// Positions of the group's violations in the list grouped.
  var indexes: [Int]

  /// Groups of `violations[indexes]` in order of first appearance (also by plan line when
  /// `byPlanLine`), in one pass: each group's indexes are extended in place.
  static func group(_ indexes: [Int], of violations: [PlanViolation], byPlanLine: Bool = false)
    -> [ViolationGroup]
  {
    struct Key: Hashable {
      var severity: Severity
      var rule: ViolationRule
      var tag: String
      var provider: String?
      var planLine: Int?
    }
    var order: [Key] = []
    var groups: [Key: [Int]] = [:]
    for index in indexes {
      let violation = violations[index]
      let key = Key(
        severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider,
        planLine: byPlanLine ? violation.planLine : nil)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(index)
    }
    return order.map {
      ViolationGroup(
        severity: $0.severity, rule: $0.rule, tag: $0.tag, provider: $0.provider, planLine: $0.planLine,
        indexes: groups[$0] ?? [])
    }
  }
}
