/// Violations sharing severity, rule, tag and provider, as the text and JUnit reports list them.
struct ViolationGroup {
  var severity: Severity
  var rule: ViolationRule
  var tag: String
  var provider: String?
  /// Positions of the group's violations in the list grouped.
  var indexes: [Int]

  /// Groups of `violations[indexes]` in order of first appearance.
  static func group(_ indexes: [Int], of violations: [PlanViolation]) -> [ViolationGroup] {
    struct Key: Hashable {
      var severity: Severity
      var rule: ViolationRule
      var tag: String
      var provider: String?
    }
    var order: [Key] = []
    var groups: [Key: [Int]] = [:]
    for index in indexes {
      let violation = violations[index]
      let key = Key(
        severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(index)
    }
    return order.map {
      ViolationGroup(
        severity: $0.severity, rule: $0.rule, tag: $0.tag, provider: $0.provider, indexes: groups[$0] ?? [])
    }
  }
}
