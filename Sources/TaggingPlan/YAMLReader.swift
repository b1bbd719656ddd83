import AnalyticsHub
import Yams

/// Typed access to a composed YAML tree that fails with the node's file, line and column.
struct YAMLReader {
  let file: String

  /// A key/value pair of a mapping with the key as a string.
  struct Pair {
    var key: String
    var keyNode: Node
    var value: Node
  }

  func location(_ node: Node) -> SourceLocation {
    guard let mark = node.mark else { return SourceLocation(line: 1, column: 1) }
    return SourceLocation(line: mark.line, column: mark.column)
  }

  func error(_ node: Node, _ message: String) -> PlanLoadError {
    PlanLoadError(file: file, location: location(node), message: message)
  }

  /// The pairs of a mapping whose keys are strings, each key one of `allowed` (when given).
  func mapping(_ node: Node, _ what: String, allowed: [String]? = nil) throws -> [Pair] {
    guard case .mapping(let mapping) = node else {
      throw error(node, "\(what) must be a mapping, found \(describe(node))")
    }
    var pairs: [Pair] = []
    for (keyNode, value) in mapping {
      guard case .scalar(let scalar) = keyNode, !scalar.string.isEmpty else {
        throw error(keyNode, "keys in \(what) must be names, found \(describeKey(keyNode))")
      }
      if let allowed, !allowed.contains(scalar.string) {
        throw error(
          keyNode,
          "unknown key '\(scalar.string)' in \(what); expected one of: \(allowed.joined(separator: ", "))")
      }
      pairs.append(Pair(key: scalar.string, keyNode: keyNode, value: value))
    }
    return pairs
  }

  /// The items of a sequence.
  func sequence(_ node: Node, _ what: String) throws -> [Node] {
    guard case .sequence(let sequence) = node else {
      throw error(node, "\(what) must be a list, found \(describe(node))")
    }
    return Array(sequence)
  }

  /// A non-empty string scalar (any plain or quoted scalar that is not null, as written).
  func string(_ node: Node, _ what: String) throws -> String {
    guard case .scalar(let scalar) = node, node.tagName != .null, !scalar.string.isEmpty else {
      throw error(node, "\(what) must be a string, found \(describe(node))")
    }
    return scalar.string
  }

  /// A list of strings, or one string taken as a list of one.
  func strings(_ node: Node, _ what: String) throws -> [String] {
    if case .scalar = node { return [try string(node, what)] }
    return try sequence(node, what).map { try string($0, "each of \(what)") }
  }

  func bool(_ node: Node, _ what: String) throws -> Bool {
    guard node.tagName == .bool, let value = node.bool else {
      throw error(node, "\(what) must be true or false, found \(describe(node))")
    }
    return value
  }

  func nonNegativeInt(_ node: Node, _ what: String) throws -> Int {
    guard node.tagName == .int, let value = node.int, value >= 0 else {
      throw error(node, "\(what) must be a non-negative integer, found \(describe(node))")
    }
    return value
  }

  func number(_ node: Node, _ what: String) throws -> Double {
    guard node.tagName == .int || node.tagName == .float, let value = node.float, value.isFinite else {
      throw error(node, "\(what) must be a number, found \(describe(node))")
    }
    return value
  }

  /// A scalar as a typed value: integers, floats, booleans and null by YAML's core schema, other
  /// scalars as strings.
  func value(_ node: Node, _ what: String) throws -> PropertyValue {
    guard case .scalar(let scalar) = node else {
      throw error(node, "\(what) must be a single value, found \(describe(node))")
    }
    switch node.tagName {
    case .int: if let value = node.int { return .int(value) }
    case .float: if let value = node.float, value.isFinite { return .double(value) }
    case .bool: if let value = node.bool { return .bool(value) }
    case .null: return .null
    default: break
    }
    return .string(scalar.string)
  }

  /// ``describe(_:)`` for a mapping's key, whose tag Yams has already resolved (as a string, by
  /// ``YAMLScalarTags/composing``) when it compared the mapping's keys: an empty plain key is null.
  private func describeKey(_ node: Node) -> String {
    if case .scalar(let scalar) = node, scalar.string.isEmpty, scalar.style == .plain || scalar.style == .any
    {
      return "nothing"
    }
    return describe(node)
  }

  /// `a mapping`, `a list`, `the string "abc"`, `the integer 3`: for messages.
  func describe(_ node: Node) -> String {
    switch node {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .alias: return "an alias"
    case .scalar(let scalar):
      switch node.tagName {
      case .null: return "nothing"
      case .int: return "the integer \(scalar.string)"
      case .float: return "the number \(scalar.string)"
      case .bool: return "the boolean \(scalar.string)"
      default: return "the string \"\(scalar.string)\""
      }
    }
  }
}

extension Node {
  /// The resolved tag (`tag:yaml.org,2002:int`…) as a name to compare with `Tag.Name` constants;
  /// a scalar's by ``YAMLScalarTags`` (YAML 1.1's implicit types, as Yams's default resolver).
  var tagName: Yams.Tag.Name {
    if case .scalar(let scalar) = self { return YAMLScalarTags.name(of: scalar) }
    return Yams.Tag.Name(rawValue: tag.description)
  }
}
