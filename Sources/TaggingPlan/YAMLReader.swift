import AnalyticsHub

/// Typed access to a composed YAML tree that fails with the node's file, line and column.
struct YAMLReader {
  let file: String

  /// A key/value pair of a mapping with the key as a string.
  struct Pair {
    var key: String
    var keyNode: YAMLNode
    var value: YAMLNode
  }

  func location(_ node: YAMLNode) -> SourceLocation { node.location }

  func error(_ node: YAMLNode, _ message: String) -> PlanLoadError {
    PlanLoadError(file: file, location: location(node), message: message)
  }

  /// The pairs of a mapping whose keys are strings, each key one of `allowed` (when given).
  func mapping(_ node: YAMLNode, _ what: String, allowed: [String]? = nil) throws -> [Pair] {
    guard node.kind == .mapping else {
      throw error(node, "\(what) must be a mapping, found \(describe(node))")
    }
    var pairs: [Pair] = []
    pairs.reserveCapacity(node.pairs.count)
    for (keyNode, value) in node.pairs {
      guard keyNode.kind == .scalar, !keyNode.isEmptyText else {
        throw error(keyNode, "keys in \(what) must be names, found \(describeKey(keyNode))")
      }
      let key = keyNode.string
      if let allowed, !allowed.contains(key) {
        throw error(
          keyNode, "unknown key '\(key)' in \(what); expected one of: \(allowed.joined(separator: ", "))")
      }
      pairs.append(Pair(key: key, keyNode: keyNode, value: value))
    }
    return pairs
  }

  /// The items of a sequence.
  func sequence(_ node: YAMLNode, _ what: String) throws -> YAMLNode.Children {
    guard node.kind == .sequence else {
      throw error(node, "\(what) must be a list, found \(describe(node))")
    }
    return node.children
  }

  /// A non-empty string scalar (any plain or quoted scalar that is not null, as written).
  func string(_ node: YAMLNode, _ what: String) throws -> String {
    guard node.kind == .scalar, !node.isNull, !node.isEmptyText else {
      throw error(node, "\(what) must be a string, found \(describe(node))")
    }
    return node.string
  }

  /// A list of strings, or one string taken as a list of one.
  func strings(_ node: YAMLNode, _ what: String) throws -> [String] {
    if node.kind == .scalar { return [try string(node, what)] }
    return try sequence(node, what).map { try string($0, "each of \(what)") }
  }

  func bool(_ node: YAMLNode, _ what: String) throws -> Bool {
    guard node.kind == .scalar, node.tag == .bool, let value = node.bool else {
      throw error(node, "\(what) must be true or false, found \(describe(node))")
    }
    return value
  }

  func nonNegativeInt(_ node: YAMLNode, _ what: String) throws -> Int {
    guard node.kind == .scalar, node.tag == .int, let value = node.int, value >= 0 else {
      throw error(node, "\(what) must be a non-negative integer, found \(describe(node))")
    }
    return value
  }

  func number(_ node: YAMLNode, _ what: String) throws -> Double {
    guard node.kind == .scalar, node.tag == .int || node.tag == .float, let value = node.double,
      value.isFinite
    else {
      throw error(node, "\(what) must be a number, found \(describe(node))")
    }
    return value
  }

  /// A number exactly as written: an integer as `.int`, or `.largeInteger` past `Int`'s range (its
  /// digits kept), any other number as `.double`.
  func exactNumber(_ node: YAMLNode, _ what: String) throws -> PropertyValue {
    if node.kind == .scalar, node.tag == .int, let integer = Self.integer(node) { return integer }
    return .double(try number(node, what))
  }

  /// An integer scalar as `.int`, or `.largeInteger` when its decimal digits are past `Int`'s range.
  private static func integer(_ node: YAMLNode) -> PropertyValue? {
    if let value = node.int { return .int(value) }
    return LargeInteger(node.string).map { .largeInteger($0) }
  }

  /// A scalar as a typed value: integers (exactly, ``exactNumber(_:_:)``), floats, booleans and
  /// null by YAML's core schema, other scalars as strings.
  func value(_ node: YAMLNode, _ what: String) throws -> PropertyValue {
    guard node.kind == .scalar else {
      throw error(node, "\(what) must be a single value, found \(describe(node))")
    }
    switch node.tag {
    case .int: if let value = Self.integer(node) { return value }
    case .float: if let value = node.double, value.isFinite { return .double(value) }
    case .bool: if let value = node.bool { return .bool(value) }
    case .null: return .null
    default: break
    }
    return .string(node.string)
  }

  /// ``describe(_:)`` for a mapping's key: an empty plain key is nothing, a quoted one a string.
  private func describeKey(_ node: YAMLNode) -> String {
    if node.isEmptyText, node.isPlain { return "nothing" }
    return describe(node)
  }

  /// `a mapping`, `a list`, `the string "abc"`, `the integer 3`: for messages.
  func describe(_ node: YAMLNode) -> String {
    switch node.kind {
    case .mapping: return "a mapping"
    case .sequence: return "a list"
    case .scalar:
      switch node.tag {
      case .null: return "nothing"
      case .int: return "the integer \(node.string)"
      case .float: return "the number \(node.string)"
      case .bool: return "the boolean \(node.string)"
      default: return "the string \"\(node.string)\""
      }
    }
  }
}
