/// Violations sharing severity, rule, tag and provider, as the text and JUnit reports list them.
struct ViolationGroup {
  var severity: Severity
  var rule: ViolationRule
  var tag: String
  var provider: String?
  var violations: [PlanViolation]

  /// Groups in order of first appearance.
  static func group(_ violations: [PlanViolation]) -> [ViolationGroup] {
    struct Key: Hashable {
      var severity: Severity
      var rule: ViolationRule
      var tag: String
      var provider: String?
    }
    var order: [Key] = []
    var groups: [Key: [PlanViolation]] = [:]
    for violation in violations {
      let key = Key(
        severity: violation.severity, rule: violation.rule, tag: violation.tag, provider: violation.provider)
      if groups[key] == nil { order.append(key) }
      groups[key, default: []].append(violation)
    }
    return order.map {
      ViolationGroup(
        severity: $0.severity, rule: $0.rule, tag: $0.tag, provider: $0.provider, violations: groups[$0]!)
    }
  }
}
