/// How much a broken expectation matters: `error` (the default) fails CI, `warning` is reported and
/// fails only with `--fail-on warning`.
public enum Severity: String, Sendable, Hashable, Comparable, CaseIterable {
  case warning
  case error

  public static func < (lhs: Severity, rhs: Severity) -> Bool {
    lhs == .warning && rhs == .error
  }
}
