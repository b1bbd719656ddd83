import TaggingPlan
import TagscopeRecording

/// Reads a JSON document into a ``SourceNode`` tree on the one JSON lexer (``JSONCursor``): each
/// value's byte offset becomes its line and column through a ``LineTable``. A repeated key is a
/// warning, its last value kept (as JSON readers do). Linear in the document, nesting bounded by
/// ``DocumentReader/maximumDepth``.
struct JSONDocumentReader {
  private var cursor: JSONCursor
  private var lines: LineTable
  private let file: String
  /// The keys from the root to the value being read, for the place of a repeated key.
  private var path: [JSONPath.Component] = []
  private var warnings: [ImportWarning] = []
  private var ordinals = KeyOrdinals()
  /// Texts of 16 to 64 bytes met so far (keys such as `additionalProperties`, values such as a
  /// `$ref` every event repeats): each is held once and shared by every place it appears, where
  /// each would take its own allocation. Shorter texts take none; at most ``internedLimit``.
  private var interned: [String: String] = [:]
  private static let internedLimit = 4_096

  private init(_ bytes: UnsafeBufferPointer<UInt8>, file: String) {
    cursor = JSONCursor(bytes, depthLimit: DocumentReader.maximumDepth)
    lines = LineTable(bytes)
    self.file = file
  }

  /// The document `text`, with a warning per repeated key; errors name `file` and the place of
  /// the problem.
  static func read(_ text: String, file: String) throws(ImportError) -> SourceDocument {
    var text = text
    let result = text.withUTF8 { bytes -> Result<SourceDocument, ImportError> in
      var reader = JSONDocumentReader(bytes, file: file)
      do throws(JSONSyntaxError) {
        let root = try reader.document()
        return .success(
          SourceDocument(
            file: file, root: root, readWarnings: reader.warnings, byteCount: bytes.count,
            ordinals: reader.ordinals))
      } catch {
        let location = reader.lines.location(of: error.offset)
        return .failure(ImportError(file: file, location: location, message: "invalid JSON: \(error.reason)"))
      }
    }
    return try result.get()
  }

  /// The whole document: one value, a byte order mark and whitespace around it allowed.
  private mutating func document() throws(JSONSyntaxError) -> SourceNode {
    if cursor.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { cursor.index = 3 }
    cursor.skipWhitespace()
    let root = try value()
    try cursor.expectEnd()
    return root
  }

  /// The value at the cursor.
  private mutating func value() throws(JSONSyntaxError) -> SourceNode {
    let location = lines.location(of: cursor.index)
    switch cursor.peek {
    case UInt8(ascii: "{"): return SourceNode(.object(try members()), at: location)
    case UInt8(ascii: "["): return SourceNode(.array(try elements()), at: location)
    case UInt8(ascii: "\""): return SourceNode(.string(intern(try cursor.string())), at: location)
    case UInt8(ascii: "t"):
      try cursor.literal("true")
      return SourceNode(.bool(true), at: location)
    case UInt8(ascii: "f"):
      try cursor.literal("false")
      return SourceNode(.bool(false), at: location)
    case UInt8(ascii: "n"):
      try cursor.literal("null")
      return SourceNode(.null, at: location)
    case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
      switch try cursor.number() {
      case .int(let number): return SourceNode(.number(.int(number)), at: location)
      case .largeInteger(let number): return SourceNode(.number(.largeInteger(number)), at: location)
      case .double(let number): return SourceNode(.number(.double(number)), at: location)
      }
    default: throw cursor.valueExpected()
    }
  }

  /// The members of the object at the cursor, in document order.
  private mutating func members() throws(JSONSyntaxError) -> [SourceNode.Member] {
    try cursor.open()
    var members: [SourceNode.Member] = []
    var positions: [String: Int] = [:]
    var first = true
    while try cursor.nextMember(first: first) {
      first = false
      let keyLocation = lines.location(of: cursor.index)
      let key = intern(String(decoding: try cursor.memberKey(), as: UTF8.self))
      path.append(.key(key))
      let ordinal = ordinals.take()
      let member = SourceNode.Member(key: key, keyLocation: keyLocation, value: try value(), ordinal: ordinal)
      path.removeLast()
      guard let earlier = positions[key] else {
        positions[key] = members.count
        members.append(member)
        continue
      }
      let earlierLocation = members[earlier].keyLocation
      warnings.append(
        ImportWarning(
          file: file, location: keyLocation, path: JSONPath(path + [.key(key)]),
          message:
            "the key \"\(key)\" is repeated (\(JSONPath(path + [.key(key)]))), first at \(earlierLocation.line):\(earlierLocation.column): this last value is kept"
        ))
      members[earlier] = member
    }
    return members
  }

  /// `text`, or the same text met before.
  private mutating func intern(_ text: String) -> String {
    guard (16...64).contains(text.utf8.count) else { return text }
    if let known = interned[text] { return known }
    if interned.count < Self.internedLimit { interned[text] = text }
    return text
  }

  /// The elements of the array at the cursor.
  private mutating func elements() throws(JSONSyntaxError) -> [SourceNode] {
    try cursor.open()
    var elements: [SourceNode] = []
    var first = true
    while try cursor.nextElement(first: first) {
      first = false
      path.append(.index(elements.count))
      elements.append(try value())
      path.removeLast()
    }
    return elements
  }
}
