import AnalyticsHub
import TagscopeRecording

/// A problem found inside an object or array value: where (`products[2].price`), which rule it
/// breaks, and the constraint and value involved.
struct ContentProblem: Sendable {
  /// The path from the checked property or parameter (`products[2].price`).
  var path: String
  var rule: ViolationRule
  /// `is a string ("x")`, `is missing`.
  var found: String
  /// `expects number`, `requires it`.
  var expected: String
  /// The constraint broken; `nil` for a key its object does not plan.
  var constraint: PropertyRule?
  /// The value found there; `nil` when absent.
  var value: PropertyValue?
  /// The plan line saying so.
  var line: Int
  /// For a key not planned: the keys its object plans.
  var planned: [String]
}

extension PropertyRule {
  /// Problems reported per checked value at most (a hostile array could hold millions).
  static let contentProblemLimit = 20

  /// The problems inside `value`: each planned property of an object (absent and required:
  /// `missing`; else checked as a value, then inside), its keys not planned when
  /// `additionalProperties` is false, and each element of an array against `items`. Depth first,
  /// at most ``contentProblemLimit``.
  func contentProblems(
    in value: PropertyValue, path: String, missing: ViolationRule, memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    switch value {
    case .object(let object):
      if let properties {
        for rule in properties {
          guard problems.count < Self.contentProblemLimit else { return }
          let childPath = Self.path(path, key: rule.name)
          guard let child = object[rule.name], child != .null else {
            if rule.required {
              problems.append(
                ContentProblem(
                  path: childPath, rule: missing, found: "is missing",
                  expected: "requires it", constraint: rule, value: nil, line: rule.location.line, planned: []
                ))
            }
            continue
          }
          rule.check(child, path: childPath, missing: missing, memo: &memo, into: &problems)
        }
      }
      if !additionalProperties {
        let names = properties?.map(\.name) ?? []
        for index in object.indices where !names.contains(object[index].key) {
          guard problems.count < Self.contentProblemLimit else { return }
          let list = names.isEmpty ? "no key" : names.joined(separator: ", ")
          problems.append(
            ContentProblem(
              path: Self.path(path, key: object[index].key), rule: .unexpectedProperty,
              found: "is not planned",
              expected: "lists \(list)", constraint: nil, value: object[index].value, line: location.line,
              planned: names))
        }
      }
    case .array(let elements):
      guard let items else { return }
      for (index, element) in elements.enumerated() {
        guard problems.count < Self.contentProblemLimit else { return }
        items.check(element, path: "\(path)[\(index)]", missing: missing, memo: &memo, into: &problems)
      }
    default:
      return
    }
  }

  /// One value at `path`: its own constraints, then (when they hold) its content.
  private func check(
    _ value: PropertyValue, path: String, missing: ViolationRule, memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    if let problem = problem(with: value, memo: &memo) {
      problems.append(
        ContentProblem(
          path: path, rule: problem.rule, found: problem.found, expected: problem.expected, constraint: self,
          value: value, line: location.line, planned: []))
      return
    }
    if checksContent {
      contentProblems(in: value, path: path, missing: missing, memo: &memo, into: &problems)
    }
  }

  /// `products[2].price`: `key` after `path`, bracketed and quoted when it is not a plain word.
  static func path(_ path: String, key: String) -> String {
    let plain =
      !key.isEmpty
      && key.unicodeScalars.allSatisfy {
        $0 != "." && $0 != "[" && $0 != "]" && $0 != "\"" && $0 != " " && $0.value >= 32
      }
    if plain { return path.isEmpty ? key : "\(path).\(key)" }
    return "\(path)[\(JSONText.quoted(key))]"
  }
}
