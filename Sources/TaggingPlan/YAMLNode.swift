import Yams

/// One node of a ``YAMLTree``: its kind, place, scalar text and type, or its children.
package struct YAMLNode: Sendable {
  /// What the node is.
  package enum Kind: UInt8, Sendable {
    case scalar
    case sequence
    case mapping
  }

  let storage: YAMLTree.Storage
  let index: Int

  private var slot: YAMLTree.Slot { storage.slots[index] }

  /// A scalar, a sequence or a mapping.
  package var kind: Kind { slot.kind }

  /// Where the node starts (1-based line and column, as libyaml counts them).
  package var location: SourceLocation {
    let slot = slot
    return SourceLocation(line: Int(slot.line), column: Int(slot.column))
  }

  /// A scalar's resolved type (YAML 1.1's implicit types; an explicit tag as written); `.str`
  /// for a collection.
  package var tag: YAMLScalarTag { slot.tag }

  /// Whether the node is a null scalar (`~`, `null`, or nothing).
  package var isNull: Bool { kind == .scalar && tag == .null }

  /// Whether a scalar is written plain (not quoted, not a block scalar).
  package var isPlain: Bool { slot.style <= 1 }

  /// A scalar's text as written (unescaped); empty for a collection.
  package var string: String {
    let slot = slot
    guard slot.kind == .scalar else { return "" }
    return String(decoding: storage.bytes[Int(slot.first)..<Int(slot.first + slot.count)], as: UTF8.self)
  }

  /// Whether a scalar's text is empty.
  package var isEmptyText: Bool { kind == .scalar && slot.count == 0 }

  /// The children of a collection (a mapping's alternate key and value); none for a scalar.
  package var children: Children {
    let slot = slot
    guard slot.kind != .scalar else { return Children(storage: storage, range: 0..<0) }
    return Children(storage: storage, range: Int(slot.first)..<Int(slot.first + slot.count))
  }

  /// A mapping's key/value pairs in document order; none for another node.
  package var pairs: Pairs {
    Pairs(children: kind == .mapping ? children : Children(storage: storage, range: 0..<0))
  }

  /// An integer scalar's value (YAML 1.1 forms: `0x1F`, `1_000`, `1:30`); `nil` when it is not one.
  package var int: Int? {
    guard kind == .scalar else { return nil }
    let text = string
    if isPlainDecimal(text.utf8, fraction: false) { return Int(text) }
    return Int.construct(from: yamsScalar(text))
  }

  /// A numeric scalar's value (integers included; `.inf`, `1e5`); `nil` when it is not one.
  package var double: Double? {
    guard kind == .scalar else { return nil }
    let text = string
    if isPlainDecimal(text.utf8, fraction: true) { return Double(text) }
    return Double.construct(from: yamsScalar(text))
  }

  /// A boolean scalar's value (`true`, `yes`, `on`…); `nil` when it is not one.
  package var bool: Bool? {
    guard kind == .scalar else { return nil }
    return Bool.construct(from: yamsScalar(string))
  }

  /// The scalar as Yams's constructors take it, for the forms only they read.
  private func yamsScalar(_ text: String) -> Node.Scalar {
    Node.Scalar(text, Tag(.implicit), Node.Scalar.Style(rawValue: UInt32(slot.style)) ?? .any)
  }

  /// Whether `text` is `[-+]?(0|[1-9][0-9]*)`, or with `fraction` also `[-+]?[0-9]+\.[0-9]*`:
  /// the forms Swift's own parsers read as YAML does.
  private func isPlainDecimal(_ text: String.UTF8View, fraction: Bool) -> Bool {
    var bytes = text[...]
    if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
      bytes = bytes.dropFirst()
    }
    let digits = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    guard !digits.isEmpty, digits.count <= 18 else { return false }
    let rest = bytes.dropFirst(digits.count)
    if rest.isEmpty { return digits.first != UInt8(ascii: "0") || digits.count == 1 }
    return fraction && rest.first == UInt8(ascii: ".")
      && rest.dropFirst().allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
  }

  /// A collection's children (indexed from 0), each an alias's anchored node when it is one.
  package struct Children: RandomAccessCollection, Sendable {
    let storage: YAMLTree.Storage
    let range: Range<Int>

    package var startIndex: Int { 0 }
    package var endIndex: Int { range.count }

    package subscript(position: Int) -> YAMLNode {
      YAMLNode(
        storage: storage, index: Int(storage.children[range.lowerBound + position] & ~YAMLTree.aliasFlag))
    }

    /// Whether the child at `position` is an alias of a node anchored elsewhere.
    func isAlias(at position: Int) -> Bool {
      storage.children[range.lowerBound + position] & YAMLTree.aliasFlag != 0
    }
  }

  /// A mapping's key/value pairs.
  package struct Pairs: RandomAccessCollection, Sendable {
    let children: Children

    package var startIndex: Int { 0 }
    package var endIndex: Int { children.count / 2 }

    package subscript(position: Int) -> (key: YAMLNode, value: YAMLNode) {
      (children[2 * position], children[2 * position + 1])
    }
  }
}
