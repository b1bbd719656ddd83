import AnalyticsHub

/// A provider's documented rules, written once over the common call shape (`method`, `name`,
/// `parameters`) so the same code checks typed calls a mapping produced and ``CallDescription``s
/// recorded from SDK traffic (`tagscope listen`) or read back from a recording.
public protocol ProviderRuleSet: Sendable {
  /// The provider identifier the rules are registered under (`firebase`), as `AnalyticsProviders`'s
  /// `ProviderRules` looks them up.
  static var providerID: ProviderID { get }

  /// Appends the violations of `calls` to `violations`; `callIndex` is the position in `calls`.
  static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation])
}

extension ProviderRuleSet {
  /// The violations of `calls`.
  public static func check<Call: ProviderCall>(_ calls: [Call]) -> [RuleViolation] {
    var violations: [RuleViolation] = []
    check(calls, into: &violations)
    return violations
  }

  /// A rule check closure for ``Provider/init(id:category:enabled:adapter:rules:mapping:)``.
  public static func ruleCheck<Call: ProviderCall>(for type: Call.Type = Call.self) -> RuleCheck<Call> {
    { calls in
      var violations: [RuleViolation] = []
      check(calls, into: &violations)
      return violations
    }
  }
}
