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
  /// For a key not planned or a missing one: the keys its object plans.
  var planned: [String]
  /// For a missing key: the object it is missing from (what it carried instead).
  var carried: Properties = [:]
}

/// One step of the path to a value inside another: an object's key or an array's index.
enum PathStep: Sendable {
  case key(String)
  case index(Int)
}

extension PropertyRule {
  /// Problems reported per checked value at most (a hostile array could hold millions).
  static let contentProblemLimit = 20

  /// The problems inside `value`, at paths under `path`: each key of an object it plans (checked
  /// as a value, then inside), its keys not planned when `additionalProperties` is false, its
  /// required keys absent (or null where null is not a planned type: `missing`), and each element
  /// of an array against `prefixItems` and `items`.
  /// Depth first, at most ``contentProblemLimit``; a path is only spelled out for a problem.
  func contentProblems(
    in value: PropertyValue, path: String, missing: ViolationRule, memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    var steps: [PathStep] = []
    walk(value, root: path, steps: &steps, missing: missing, memo: &memo, into: &problems)
  }

  /// ``contentProblems(in:path:missing:memo:into:)`` after the value's own keywords (a catalogue
  /// entry's `anyOf`, `minProperties`…), which the other callers have checked before.
  func objectProblems(
    in value: PropertyValue, path: String, missing: ViolationRule, memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    if hasKeywords, let problem = problem(with: value, memo: &memo) {
      problems.append(
        ContentProblem(
          path: path, rule: problem.rule, found: problem.found, expected: problem.expected, constraint: self,
          value: value, line: location.line, planned: []))
    }
    contentProblems(in: value, path: path, missing: missing, memo: &memo, into: &problems)
  }

  private func walk(
    _ value: PropertyValue, root: String, steps: inout [PathStep], missing: ViolationRule,
    memo: inout PatternMemo, into problems: inout [ContentProblem]
  ) {
    switch value {
    case .object(let object):
      let keywords = self.keywords
      var requiredFound = 0
      for index in object.indices {
        guard problems.count < Self.contentProblemLimit else { return }
        let key = object[index].key
        let child = object[index].value
        steps.append(.key(key))
        defer { steps.removeLast() }
        var planned = false
        if let properties, let position = keys.position(of: key, in: properties) {
          let rule = properties[position]
          planned = true
          if child != .null || !rule.nullIsAbsent {
            if rule.required { requiredFound += 1 }
            rule.check(child, root: root, steps: &steps, missing: missing, memo: &memo, into: &problems)
          }
        }
        if let keywords {
          var matched = false
          for entry in keywords.patternProperties where memo.matches(entry.pattern, key) {
            matched = true
            entry.schema.check(
              child, root: root, steps: &steps, missing: missing, memo: &memo, into: &problems)
          }
          if planned || matched { continue }
          if let additional = keywords.additionalSchema {
            additional.check(child, root: root, steps: &steps, missing: missing, memo: &memo, into: &problems)
            continue
          }
        }
        if !planned && !additionalProperties {
          let names = properties?.map(\.name) ?? []
          problems.append(
            ContentProblem(
              path: Self.spell(root, steps), rule: .unexpectedProperty, found: "is not planned",
              expected: "lists \(names.isEmpty ? "no key" : names.joined(separator: ", "))", constraint: nil,
              value: child, line: location.line, planned: names))
        }
      }
      guard requiredFound < keys.requiredCount, let properties else { return }
      for rule in properties where rule.required {
        guard problems.count < Self.contentProblemLimit else { return }
        if let child = object[rule.name], child != .null || !rule.nullIsAbsent { continue }
        steps.append(.key(rule.name))
        problems.append(
          ContentProblem(
            path: Self.spell(root, steps), rule: missing, found: "is missing", expected: "requires it",
            constraint: rule, value: nil, line: rule.location.line, planned: properties.map(\.name),
            carried: object))
        steps.removeLast()
      }
    case .array(let elements):
      let prefix = keywords?.prefixItems ?? []
      let items = self.items
      guard items != nil || !prefix.isEmpty else { return }
      for (index, element) in elements.enumerated() {
        guard problems.count < Self.contentProblemLimit else { return }
        guard let rule = index < prefix.count ? prefix[index] : items else { return }
        steps.append(.index(index))
        rule.check(element, root: root, steps: &steps, missing: missing, memo: &memo, into: &problems)
        steps.removeLast()
      }
    default:
      return
    }
  }

  /// One value at `steps` under `root`: its own constraints, then (when they hold) its content.
  private func check(
    _ value: PropertyValue, root: String, steps: inout [PathStep], missing: ViolationRule,
    memo: inout PatternMemo, into problems: inout [ContentProblem]
  ) {
    if let problem = problem(with: value, memo: &memo) {
      problems.append(
        ContentProblem(
          path: Self.spell(root, steps), rule: problem.rule, found: problem.found, expected: problem.expected,
          constraint: self, value: value, line: location.line, planned: []))
      return
    }
    if checksContent {
      walk(value, root: root, steps: &steps, missing: missing, memo: &memo, into: &problems)
    }
  }

  /// `products[2].price`: the steps after `root`.
  static func spell(_ root: String, _ steps: [PathStep]) -> String {
    var text = root
    for step in steps {
      switch step {
      case .key(let key): text = path(text, key: key)
      case .index(let index): text += "[\(index)]"
      }
    }
    return text
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
