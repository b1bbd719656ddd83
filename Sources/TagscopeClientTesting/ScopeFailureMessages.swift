import TagscopeClient

/// The failure messages of a scope's verdict and of a check report, one per violation or failed
/// check, as the XCTest assertions record them.
enum ScopeFailureMessages {
  /// `scope 'checkout': #3 addToCart: missing-property (firebase): …`, one per violation.
  static func violations(of verdict: ScopeVerdict) -> [String] {
    (verdict.violations ?? []).map { violation in
      let provider = violation.provider.map { " (\($0))" } ?? ""
      return "scope '\(verdict.scope)': #\(violation.seq) \(violation.tag): \(violation.rule)\(provider): "
        + violation.message
    }
  }

  /// `scope 'checkout': unplanned: … (#4 surprise)`, one per failed check.
  static func failures(of report: ScopeCheckReport) -> [String] {
    report.failures.map { "\(report.subject): \($0)" }
  }
}
