internal import CYaml

/// A YAML document composed from libyaml's events (the parser Yams wraps) into three flat arrays:
/// one 20-byte slot per node, the scalars' text in one byte buffer, and each collection's children
/// as a run of indices. Yams's own tree (`Yams.compose`) costs about 150 bytes and three
/// allocations per scalar, so a plan of a million enum values took 270 MB to load; this one takes
/// about 24 bytes per scalar plus its text.
///
/// An alias is its anchored node's index (the node is shared, as in Yams), flagged as an alias so
/// that ``YAMLExpansionBudget`` can say where an expansion went too far. Scalar types are resolved
/// by ``YAMLScalarTags`` (YAML 1.1's implicit types, as Yams's default resolver).
package struct YAMLTree: Sendable {
  /// One node: a scalar's text (`first`, `count` in ``Storage/bytes``) or a collection's children
  /// (`first`, `count` in ``Storage/children``; a mapping's alternate key and value).
  struct Slot {
    var first: UInt32
    var count: UInt32
    var line: UInt32
    var column: UInt32
    var kind: YAMLNode.Kind
    var tag: YAMLScalarTag
    var style: UInt8
  }

  final class Storage: Sendable {
    let slots: [Slot]
    let bytes: [UInt8]
    /// Child references: a node index, with ``aliasFlag`` set when the child is an alias.
    let children: [UInt32]

    init(slots: [Slot], bytes: [UInt8], children: [UInt32]) {
      self.slots = slots
      self.bytes = bytes
      self.children = children
    }
  }

  /// Set in a child reference that is an alias of an anchored node.
  static let aliasFlag: UInt32 = 1 << 31

  let storage: Storage
  /// Whether any alias was followed: without one, no node is shared.
  package let hasAliases: Bool

  /// The document's root node.
  package var root: YAMLNode { YAMLNode(storage: storage, index: 0) }

  /// How many nodes the document holds (each anchored node once).
  package var nodeCount: Int { storage.slots.count }

  /// Composes the single document of `text`; `nil` when it holds none (empty, or only comments).
  package static func compose(_ text: String) throws(YAMLSyntaxError) -> YAMLTree? {
    var text = text
    text.makeContiguousUTF8()
    let result = text.utf8.withContiguousStorageIfAvailable { buffer in
      Result { () throws(YAMLSyntaxError) -> YAMLTree? in
        var composer = YAMLComposer(buffer)
        return try composer.document()
      }
    }
    // A contiguous UTF-8 string always lends its storage.
    return try result!.get()
  }
}

/// A failed compose: libyaml's error, a duplicate key, an undefined alias or a second document,
/// with its place.
package struct YAMLSyntaxError: Error, Sendable {
  /// What is wrong.
  package enum Reason: Sendable, Equatable {
    /// libyaml's scanner or parser: its problem and the construct it was reading (`while
    /// parsing a block mapping`) with where that started.
    case syntax(problem: String, context: String?, contextLocation: SourceLocation?)
    /// A mapping's key appears twice; `first` is where it was first.
    case duplicateKey(String, first: SourceLocation)
    /// The text cannot be read (an invalid UTF-8 sequence, a control character): `offset` is the
    /// byte where.
    case unreadable(problem: String, offset: Int)
    /// An alias names no anchor defined before it.
    case undefinedAlias(String)
    /// A second document follows the first.
    case secondDocument
    /// libyaml ran out of memory.
    case outOfMemory
  }

  /// Where the problem is (the second occurrence of a duplicate key).
  package var location: SourceLocation
  /// What the problem is.
  package var reason: Reason

  /// The problem in one sentence, without its place (`did not find expected key (while parsing a
  /// block mapping at line 3, column 1)`).
  package var problem: String {
    switch reason {
    case .syntax(let problem, let context, let contextLocation):
      guard let context else { return problem }
      let place = contextLocation.map { " at line \($0.line), column \($0.column)" } ?? ""
      return "\(problem) (\(context)\(place))"
    case .duplicateKey(let key, let first):
      return "duplicate key '\(key)' (first at line \(first.line), column \(first.column))"
    case .unreadable(let problem, _): return problem
    case .undefinedAlias(let name): return "found undefined alias '\(name)'"
    case .secondDocument: return "a second document follows the first (a plan is one document)"
    case .outOfMemory: return "out of memory"
    }
  }
}

/// Turns libyaml's events into a ``YAMLTree``: each node's slot is taken when it starts, so the
/// root is slot 0 and a node's descendants follow it; a collection's children wait on one shared
/// stack until it ends, then are copied out as one run.
private struct YAMLComposer {
  private var parser = yaml_parser_t()
  private let input: UnsafeBufferPointer<UInt8>
  private var slots: [YAMLTree.Slot] = []
  private var bytes: [UInt8] = []
  private var children: [UInt32] = []
  /// The child references of the open collections, innermost last.
  private var waiting: [UInt32] = []
  /// The open collections: their slot, where their children start in `waiting`, their anchor.
  private var open: [(slot: Int, firstChild: Int, anchor: String?)] = []
  private var anchors: [String: UInt32] = [:]
  private var hasAliases = false

  init(_ input: UnsafeBufferPointer<UInt8>) {
    self.input = input
  }

  /// The stream's single document, or `nil` when it has none.
  mutating func document() throws(YAMLSyntaxError) -> YAMLTree? {
    guard yaml_parser_initialize(&parser) == 1 else {
      throw YAMLSyntaxError(location: SourceLocation(line: 1, column: 1), reason: .outOfMemory)
    }
    defer { yaml_parser_delete(&parser) }
    yaml_parser_set_encoding(&parser, YAML_UTF8_ENCODING)
    yaml_parser_set_input_string(&parser, input.baseAddress, input.count)
    var documents = 0
    var done = false
    while !done {
      var event = yaml_event_t()
      guard yaml_parser_parse(&parser, &event) == 1 else { throw parserError() }
      defer { yaml_event_delete(&event) }
      let location = SourceLocation(
        line: Int(event.start_mark.line) + 1, column: Int(event.start_mark.column) + 1)
      switch event.type {
      case YAML_STREAM_END_EVENT: done = true
      case YAML_DOCUMENT_START_EVENT:
        documents += 1
        if documents > 1 { throw YAMLSyntaxError(location: location, reason: .secondDocument) }
      case YAML_SCALAR_EVENT: try scalar(event, at: location)
      case YAML_ALIAS_EVENT: try alias(text(event.data.alias.anchor) ?? "", at: location)
      case YAML_SEQUENCE_START_EVENT:
        try start(.sequence, anchor: text(event.data.sequence_start.anchor), at: location)
      case YAML_MAPPING_START_EVENT:
        try start(.mapping, anchor: text(event.data.mapping_start.anchor), at: location)
      case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT: try end()
      default: break
      }
    }
    guard !slots.isEmpty else { return nil }
    return YAMLTree(
      storage: YAMLTree.Storage(slots: slots, bytes: bytes, children: children), hasAliases: hasAliases)
  }

  private mutating func scalar(_ event: yaml_event_t, at location: SourceLocation) throws(YAMLSyntaxError) {
    let scalar = event.data.scalar
    let value = UnsafeBufferPointer(start: scalar.value, count: scalar.length)
    let tag: YAMLScalarTag
    if scalar.quoted_implicit == 1 {
      tag = .str
    } else if let explicit = text(scalar.tag) {
      tag = YAMLScalarTag(explicit: explicit)
    } else {
      tag = YAMLScalarTags.implicitTag(of: value)
    }
    let first = try index(bytes.count, at: location)
    bytes.append(contentsOf: value)
    let index = try newSlot(
      YAMLTree.Slot(
        first: first, count: try self.index(value.count, at: location), line: UInt32(clamping: location.line),
        column: UInt32(clamping: location.column), kind: .scalar, tag: tag,
        style: UInt8(scalar.style.rawValue)),
      at: location)
    register(text(scalar.anchor), index)
    waiting.append(index)
  }

  private mutating func alias(_ name: String, at location: SourceLocation) throws(YAMLSyntaxError) {
    guard let index = anchors[name] else {
      throw YAMLSyntaxError(location: location, reason: .undefinedAlias(name))
    }
    hasAliases = true
    waiting.append(index | YAMLTree.aliasFlag)
  }

  private mutating func start(_ kind: YAMLNode.Kind, anchor: String?, at location: SourceLocation)
    throws(YAMLSyntaxError)
  {
    let index = try newSlot(
      YAMLTree.Slot(
        first: 0, count: 0, line: UInt32(clamping: location.line), column: UInt32(clamping: location.column),
        kind: kind, tag: .str, style: 0),
      at: location)
    open.append((Int(index), waiting.count, anchor))
  }

  private mutating func end() throws(YAMLSyntaxError) {
    guard let (slot, firstChild, anchor) = open.popLast() else { return }
    let run = waiting[firstChild...]
    let location = SourceLocation(line: Int(slots[slot].line), column: Int(slots[slot].column))
    if slots[slot].kind == .mapping { try checkKeys(run) }
    slots[slot].first = try index(children.count, at: location)
    slots[slot].count = try index(run.count, at: location)
    children.append(contentsOf: run)
    waiting.removeSubrange(firstChild...)
    register(anchor, UInt32(slot))
    waiting.append(UInt32(slot))
  }

  /// Throws on a scalar key that appears twice in one mapping (`children` alternate key, value).
  private func checkKeys(_ run: ArraySlice<UInt32>) throws(YAMLSyntaxError) {
    let keys = stride(from: run.startIndex, to: run.endIndex, by: 2).map { run[$0] & ~YAMLTree.aliasFlag }
      .filter { slots[Int($0)].kind == .scalar }
    guard keys.count > 1 else { return }
    func text(_ key: UInt32) -> ArraySlice<UInt8> {
      let slot = slots[Int(key)]
      return bytes[Int(slot.first)..<Int(slot.first + slot.count)]
    }
    func duplicate(_ first: UInt32, _ second: UInt32) -> YAMLSyntaxError {
      let a = slots[Int(first)]
      let b = slots[Int(second)]
      return YAMLSyntaxError(
        location: SourceLocation(line: Int(b.line), column: Int(b.column)),
        reason: .duplicateKey(
          String(decoding: text(first), as: UTF8.self),
          first: SourceLocation(line: Int(a.line), column: Int(a.column))))
    }
    if keys.count <= 8 {
      for (position, key) in keys.enumerated() {
        for earlier in keys[..<position] where text(earlier) == text(key) { throw duplicate(earlier, key) }
      }
      return
    }
    var seen: [ArraySlice<UInt8>: UInt32] = [:]
    seen.reserveCapacity(keys.count)
    for key in keys {
      if let earlier = seen.updateValue(key, forKey: text(key)) { throw duplicate(earlier, key) }
    }
  }

  private mutating func newSlot(_ slot: YAMLTree.Slot, at location: SourceLocation) throws(YAMLSyntaxError)
    -> UInt32
  {
    let index = try self.index(slots.count, at: location)
    slots.append(slot)
    return index
  }

  /// `value` as a stored index; a document too large for 31 bits of nodes or bytes fails.
  private func index(_ value: Int, at location: SourceLocation) throws(YAMLSyntaxError) -> UInt32 {
    guard value < Int(YAMLTree.aliasFlag) else {
      throw YAMLSyntaxError(
        location: location,
        reason: .syntax(problem: "the document is too large to compose", context: nil, contextLocation: nil))
    }
    return UInt32(value)
  }

  private mutating func register(_ anchor: String?, _ index: UInt32) {
    if let anchor { anchors[anchor] = index }
  }

  private func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
    guard let pointer else { return nil }
    return String(cString: pointer)
  }

  private func parserError() -> YAMLSyntaxError {
    func location(_ mark: yaml_mark_t) -> SourceLocation {
      SourceLocation(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }
    let problem = parser.problem.map { String(cString: $0) } ?? "invalid YAML"
    switch parser.error {
    case YAML_MEMORY_ERROR:
      return YAMLSyntaxError(location: SourceLocation(line: 1, column: 1), reason: .outOfMemory)
    case YAML_READER_ERROR:
      let offset = min(parser.problem_offset, input.count)
      return YAMLSyntaxError(
        location: YAMLTree.location(ofByte: offset, in: input),
        reason: .unreadable(problem: problem, offset: offset))
    default:
      let context = parser.context.map { String(cString: $0) }
      return YAMLSyntaxError(
        location: location(parser.problem_mark),
        reason: .syntax(
          problem: problem, context: context,
          contextLocation: context == nil ? nil : location(parser.context_mark)))
    }
  }
}

extension YAMLTree {
  /// The line and column (in characters) of byte `offset` of `text`.
  static func location(ofByte offset: Int, in text: UnsafeBufferPointer<UInt8>) -> SourceLocation {
    var line = 1
    var column = 1
    for byte in text.prefix(offset) {
      if byte == 10 {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SourceLocation(line: line, column: column)
  }
}
