import AnalyticsHub
import AnalyticsProviders
import TaggingPlan
import TagscopeRecording

// What the tools check recorded calls with: every provider's rules (the `AnalyticsProviders`
// umbrella), counting across records as each SDK does. An app's test target links the plan core
// alone and names the rules of the providers it links instead.

extension ProviderRuleChecks {
  /// Every provider's documented rules, counting across the records of an app instance (the 500
  /// Firebase event types and 25 user properties): what `tagscope validate`, `listen` and the
  /// debugger check recorded calls with.
  public static let allProviders = ProviderRuleChecks { ProviderRuleStream() }
}

extension ValidationState {
  /// Nothing remembered yet; recorded calls are checked with every provider's rules.
  public init() { self.init(rules: .allProviders) }
}

extension PlanValidator {
  /// A validator with nothing seen yet, checking recorded calls with every provider's rules.
  public init(plan: Plan) { self.init(plan: plan, rules: .allProviders) }

  /// Checks one record against `plan` (its recorded calls with every provider's rules), marking
  /// what it covers in `coverage`.
  public static func check(_ record: Record, plan: Plan, coverage: inout Coverage) -> [PlanViolation] {
    check(record, plan: plan, coverage: &coverage, rules: .allProviders)
  }
}

extension PlanMonitor {
  /// A monitor with nothing checked yet, checking recorded calls with every provider's rules.
  public convenience init(plan: Plan, marking: (@Sendable (_ position: Int, _ count: Int) -> Void)? = nil) {
    self.init(plan: plan, rules: .allProviders, marking: marking)
  }
}

extension PlanTestRun {
  /// A run with nothing checked yet, checking recorded calls with every provider's rules.
  public convenience init(plan: Plan) { self.init(plan: plan, rules: .allProviders) }

  /// A run observing `hub` from now on, checking recorded calls with every provider's rules.
  public convenience init<T: Taxonomy>(plan: Plan, observing hub: AnalyticsHub<T>) {
    self.init(plan: plan, rules: .allProviders, observing: hub)
  }
}

extension Plan {
  /// The violations of one dispatch against this plan, its calls checked with every provider's
  /// rules: a one-off check, without coverage.
  public func violations(of dispatch: Dispatch) -> [PlanViolation] {
    violations(of: dispatch, rules: .allProviders)
  }
}
