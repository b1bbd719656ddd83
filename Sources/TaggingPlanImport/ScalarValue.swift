import AnalyticsHub
import TaggingPlan

/// A single value a constraint names (`enum`, `const`): a string, a number, a boolean or null.
public enum ScalarValue: Sendable, Hashable {
  /// A string.
  case string(String)
  /// A number exactly as written (`.int`, `.largeInteger` or `.double`).
  case number(PropertyValue)
  /// `true` or `false`.
  case bool(Bool)
  /// `null`.
  case null

  /// The value as a YAML scalar (strings quoted when YAML would read them otherwise).
  var yaml: String {
    switch self {
    case .string(let text): return YAMLText.scalar(text)
    case .number(let number): return NumberText.yaml(number)
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    }
  }
}
