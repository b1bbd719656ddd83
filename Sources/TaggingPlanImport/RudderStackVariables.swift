import Foundation
import TaggingPlan

/// rudder-cli's `{{ .NAME }}` placeholders (Go templates in a project's specs) and their values
/// from a `*.vars.yaml` file (`--var-file`: a mapping of names to values). rudder-cli lets a
/// `RUDDER_NAME` environment variable outrank the file; an import reads files only.
struct RudderStackVariables {
  private var values: [String: String] = [:]

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

  /// `text` with every placeholder replaced; `nil` when one has no value.
  func resolved(_ text: String) -> String? {
    var result = ""
    var rest = Substring(text)
    while let open = rest.range(of: "{{") {
      guard let close = rest[open.upperBound...].range(of: "}}") else { break }
      result += rest[..<open.lowerBound]
      guard let name = Self.variable(rest[open.upperBound..<close.lowerBound]) else {
        result += rest[open.lowerBound..<close.upperBound]
        rest = rest[close.upperBound...]
        continue
      }
      guard let value = values[name] else { return nil }
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
      if let name = Self.variable(rest[open.upperBound..<close.lowerBound]), values[name] == nil {
        names.append(name)
      }
      rest = rest[close.upperBound...]
    }
    return names
  }

  /// `NAME` for the inside of `{{ .NAME }}`; `nil` for any other template action.
  private static func variable(_ inside: Substring) -> String? {
    let trimmed = inside.trimmingCharacters(in: .whitespaces)
    guard trimmed.hasPrefix("."), trimmed.count > 1 else { return nil }
    let name = trimmed.dropFirst()
    guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
    return String(name)
  }
}
