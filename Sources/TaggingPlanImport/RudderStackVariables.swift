import Foundation
import TaggingPlan

/// rudder-cli's `{{ .NAME }}` placeholders (Go templates in a project's specs, `{{ .NAME | default }}`
/// with a fallback) and their values, looked up as rudder-cli's variable substitution does
/// (rudderlabs/rudder-iac `cli/internal/varsubst`: `substitutor.go`, `resolver/env_resolver.go`):
/// a `RUDDER_NAME` environment variable first, then the `*.vars.yaml` files (`--var-file`: a
/// mapping of names to values; a later file wins), then the placeholder's default.
struct RudderStackVariables {
  private var values: [String: String] = [:]
  /// The `RUDDER_`-prefixed environment variables, the prefix removed.
  private var environment: [String: String] = [:]
  /// The import's budget: the bytes values add are spent from it.
  var budget = ExpansionBudget(sourceBytes: 0)

  /// The prefix rudder-cli takes variables from the environment with.
  static let environmentPrefix = "RUDDER_"

  /// Takes the `RUDDER_`-prefixed variables of `environment` (a process's environment).
  mutating func takeEnvironment(_ environment: [String: String]) {
    for (key, value) in environment where key.hasPrefix(Self.environmentPrefix) {
      self.environment[String(key.dropFirst(Self.environmentPrefix.count))] = value
    }
  }

  /// Whether `file` is a var file (rudder-cli's project loader skips `.vars.yaml` files).
  static func isVarFile(_ file: String) -> Bool {
    file.hasSuffix(".vars.yaml") || file.hasSuffix(".vars.yml")
  }

  /// Adds the values of a var file; returns a warning for each value that is not a scalar.
  mutating func add(_ document: SourceDocument) -> [ImportWarning] {
    guard let members = document.root.members else {
      return [
        document.warning(
          document.root, .root, "a .vars.yaml file must be a mapping of names to values: not read")
      ]
    }
    var warnings: [ImportWarning] = []
    for member in members {
      KeyLedger.current?.carry(member)
      switch member.value.value {
      case .string(let text): values[member.key] = text
      case .number(let number): values[member.key] = NumberText.yaml(number)
      case .bool(let flag): values[member.key] = flag ? "true" : "false"
      default:
        warnings.append(
          document.warning(
            member, JSONPath.root.key(member.key),
            "the variable \(member.key) is not a single value: not read"))
      }
    }
    return warnings
  }

  /// `text` with every placeholder replaced; `nil` when one has no value, or when the values
  /// would pass the import's budget (``ExpansionBudget/bytesExceeded`` then says so).
  func resolved(_ text: String) -> String? {
    var result = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      result += rest[..<open.lowerBound]
      guard let placeholder = Self.variable(rest[open.upperBound..<close.lowerBound]) else {
        result += rest[open.lowerBound..<close.upperBound]
        rest = rest[close.upperBound...]
        continue
      }
      guard let value = value(of: placeholder.name) ?? placeholder.fallback,
        budget.spendBytes(value.utf8.count)
      else { return nil }
      result += value
      rest = rest[close.upperBound...]
    }
    return result + rest
  }

  /// `text` with its placeholders replaced, or as written when one has no value.
  func text(_ text: String?) -> String? { text.map { resolved($0) ?? $0 } }

  /// The placeholders of `text` without a value.
  func unresolvedNames(in text: String) -> [String] {
    var names: [String] = []
    var rest = Substring(text)
    while let open = rest.range(of: "{{"), let close = rest[open.upperBound...].range(of: "}}") {
      if let placeholder = Self.variable(rest[open.upperBound..<close.lowerBound]),
        value(of: placeholder.name) == nil, placeholder.fallback == nil
      {
        names.append(placeholder.name)
      }
      rest = rest[close.upperBound...]
    }
    return names
  }

  /// The value of the variable `name`: the environment's, else the var files'.
  private func value(of name: String) -> String? { environment[name] ?? values[name] }

  /// `NAME` and its default for the inside of `{{ .NAME }}` or `{{ .NAME | default }}`; `nil` for
  /// any other template action. A name is `[A-Za-z_][A-Za-z0-9_]*`, as rudder-cli's.
  private static func variable(_ inside: Substring) -> (name: String, fallback: String?)? {
    let parts = inside.split(separator: "|", maxSplits: 1, omittingEmptySubsequences: false)
    let trimmed = parts[0].trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("."), trimmed.count > 1 else { return nil }
    let name = trimmed.dropFirst()
    guard let first = name.unicodeScalars.first, first == "_" || isASCIILetter(first),
      name.unicodeScalars.allSatisfy({ $0 == "_" || isASCIILetter($0) || ("0"..."9").contains($0) })
    else { return nil }
    let fallback = parts.count > 1 ? parts[1].trimmingCharacters(in: .whitespaces) : nil
    return (String(name), fallback)
  }

  private static func isASCIILetter(_ scalar: Unicode.Scalar) -> Bool {
    ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
  }
}
