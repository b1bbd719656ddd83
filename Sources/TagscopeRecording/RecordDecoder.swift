import AnalyticsHub

/// What a ``RecordDecoder`` hands its builder while it walks a record line. Every value is checked
/// by the decoder (JSON syntax, UTF-8, the schema's types and required fields) whether the builder
/// keeps it or not; the builder only chooses what to build. String bytes are valid during the call.
///
/// A field given twice is handed over twice, in order: builders keep the last (as the tree parser
/// does). Objects of the schema come as `begin`…`end`; arrays start with `beginArray`; a `null`
/// object or free object comes as `absent`.
package protocol RecordBuilder {
  /// Forgets everything: a new line starts.
  mutating func reset()
  mutating func unsigned(_ field: RecordField, _ value: UInt64)
  mutating func timestamp(_ field: RecordField, _ milliseconds: Int64)
  /// A string field; `nil` for `null`.
  mutating func string(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>?)
  /// An integer field; `nil` for `null`.
  mutating func integer(_ field: RecordField, _ value: Int?)
  /// An element of a string array (`history`, `timedEvents`).
  mutating func stringElement(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>)
  /// A free object (`properties`, `parameters`) at the cursor: the builder reads it
  /// (``JSONCursor/object()``) or skips it (``JSONCursor/skipValue()``).
  mutating func freeObject(_ field: RecordField, _ cursor: inout JSONCursor) throws(JSONSyntaxError)
  /// `null` for an object or free object.
  mutating func absent(_ field: RecordField)
  /// An object of the schema starts: `context`, `session`, or an element of `outputs`, `calls`…
  mutating func begin(_ field: RecordField)
  mutating func end(_ field: RecordField)
  /// An array field starts (or is `null`).
  mutating func beginArray(_ field: RecordField)
  /// A field the schema does not name, in an object that keeps them; the builder reads or skips
  /// its value at the cursor.
  mutating func unknown(_ object: RecordObject, key: String, _ cursor: inout JSONCursor)
    throws(JSONSyntaxError)
  /// The bytes of a field's value, after the field was handed over.
  mutating func extent(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>)
}

extension RecordBuilder {
  package mutating func unsigned(_ field: RecordField, _ value: UInt64) {}
  package mutating func timestamp(_ field: RecordField, _ milliseconds: Int64) {}
  package mutating func string(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>?) {}
  package mutating func integer(_ field: RecordField, _ value: Int?) {}
  package mutating func stringElement(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>) {}
  package mutating func freeObject(_ field: RecordField, _ cursor: inout JSONCursor) throws(JSONSyntaxError) {
    try cursor.skipValue()
  }
  package mutating func absent(_ field: RecordField) {}
  package mutating func begin(_ field: RecordField) {}
  package mutating func end(_ field: RecordField) {}
  package mutating func beginArray(_ field: RecordField) {}
  package mutating func unknown(_ object: RecordObject, key: String, _ cursor: inout JSONCursor)
    throws(JSONSyntaxError)
  {
    try cursor.skipValue()
  }
  package mutating func extent(_ field: RecordField, _ bytes: UnsafeBufferPointer<UInt8>) {}
}

/// The one record decoder: walks a record line by ``RecordSchema``'s table (``RecordObject``,
/// ``RecordField``) with the one lexer (``JSONCursor``), feeding a ``RecordBuilder`` — the full
/// ``Record``, the timeline's index fields or the plan's content key.
package enum RecordDecoder {
  /// What the line turned out to be.
  package enum Shape {
    /// A record, now in the builder.
    case record
    /// Not a record (a header, a drop marker, not a recording line): ``RecordLineDecoder`` reads
    /// it.
    case other
  }

  /// Decodes a record line into `builder`.
  ///
  /// Errors are the ones ``RecordLineDecoder`` reports: a syntax error anywhere in the line comes
  /// first, then the first field in document order that is missing or of the wrong type.
  package static func decode<Builder: RecordBuilder>(
    _ bytes: UnsafeBufferPointer<UInt8>, into builder: inout Builder
  ) throws(RecordLineError) -> Shape {
    builder.reset()
    var walk = RecordWalk(bytes)
    do throws(RecordWalkFailure) {
      walk.cursor.skipWhitespace()
      guard walk.cursor.peek == UInt8(ascii: "{") else { return .other }
      try walk.object(.record, &builder)
      do { try walk.cursor.expectEnd() } catch { throw RecordWalkFailure.syntax(error) }
      return .record
    } catch {
      switch error {
      case .notARecord: return .other
      case .syntax(let error): throw RecordLineError(syntax: error)
      case .field(let error):
        // A syntax error later in the line takes precedence, as when the line is parsed first;
        // so does a `format` field (a header) or the lack of `seq` (a marker) further on.
        let value: PropertyValue
        do { value = try JSONParser.parse(bytes) } catch { throw RecordLineError(syntax: error) }
        if case .object(let object) = value,
          object[LineFields.format] != nil || object[RecordField.seq.text] == nil
        {
          return .other
        }
        throw error
      }
    }
  }
}

/// Why a walk stopped.
enum RecordWalkFailure: Error {
  case syntax(JSONSyntaxError)
  case field(RecordLineError)
  /// A `format` field (a header) or no `seq` (a marker or not a recording line).
  case notARecord
}

/// Where the walk is in the schema, for error messages (`outputs[1].calls[0].method`).
struct FieldPath {
  private var fields: (RecordField, RecordField, RecordField, RecordField) = (.seq, .seq, .seq, .seq)
  private var indices: (Int, Int, Int, Int) = (-1, -1, -1, -1)
  private(set) var count = 0

  mutating func push(_ field: RecordField) {
    switch count {
    case 0: (fields.0, indices.0) = (field, -1)
    case 1: (fields.1, indices.1) = (field, -1)
    case 2: (fields.2, indices.2) = (field, -1)
    default: (fields.3, indices.3) = (field, -1)
    }
    count += 1
  }

  mutating func pop() { count -= 1 }

  /// Sets the array index of the innermost field.
  mutating func setIndex(_ index: Int) {
    switch count {
    case 1: indices.0 = index
    case 2: indices.1 = index
    case 3: indices.2 = index
    default: indices.3 = index
    }
  }

  /// The path, with `field` appended if given.
  func text(appending field: RecordField? = nil) -> String {
    var parts: [String] = []
    let all = [(fields.0, indices.0), (fields.1, indices.1), (fields.2, indices.2), (fields.3, indices.3)]
    for (field, index) in all.prefix(count) {
      parts.append("\(field.name)" + (index >= 0 ? "[\(index)]" : ""))
    }
    if let field { parts.append("\(field.name)") }
    return parts.joined(separator: ".")
  }
}

/// One walk over one line.
struct RecordWalk {
  var cursor: JSONCursor
  var path = FieldPath()

  init(_ bytes: UnsafeBufferPointer<UInt8>) { cursor = JSONCursor(bytes) }

  @inline(__always)
  private mutating func lex<T>(_ body: (inout JSONCursor) throws(JSONSyntaxError) -> T)
    throws(RecordWalkFailure)
    -> T
  {
    do { return try body(&cursor) } catch { throw .syntax(error) }
  }

  /// Walks an object of the schema at the cursor (its `{` not yet consumed).
  mutating func object<Builder: RecordBuilder>(_ object: RecordObject, _ builder: inout Builder)
    throws(RecordWalkFailure)
  {
    try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.open() }
    var seen: UInt64 = 0
    var first = true
    while let key = try lex({ (cursor: inout JSONCursor) throws(JSONSyntaxError) in
      try cursor.nextKey(first: first)
    }) {
      first = false
      guard let field = object.field(named: key) else {
        if object == .record, key.count == 6, LineFields.format.utf8.elementsEqual(key) { throw .notARecord }
        if object.keepsUnknownFields {
          let name = String(decoding: key, as: UTF8.self)
          try lex { (cursor: inout JSONCursor) throws(JSONSyntaxError) in
            try builder.unknown(object, key: name, &cursor)
          }
        } else {
          try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.skipValue() }
        }
        continue
      }
      seen |= field.bit
      let start = cursor.index
      path.push(field)
      try value(field, &builder)
      path.pop()
      builder.extent(field, UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index]))
    }
    let missing = object.requiredMask & ~seen
    guard missing != 0 else { return }
    if object == .record, missing & RecordField.seq.bit != 0 { throw .notARecord }
    let field = object.required.first { missing & $0.bit != 0 }!
    throw .field(RecordLineError(field: path.text(appending: field), reason: "missing"))
  }

  private mutating func value<Builder: RecordBuilder>(_ field: RecordField, _ builder: inout Builder)
    throws(RecordWalkFailure)
  {
    let next = cursor.peek
    let start = cursor.index
    switch field.type {
    case .unsigned:
      if next == UInt8(ascii: "-") || (next >= 48 && next <= 57),
        case .int(let number) = try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.number() }),
        number >= 0
      {
        builder.unsigned(field, UInt64(number))
        return
      }
      throw try mismatch("expected an integer ≥ 0", from: start)
    case .timestamp:
      guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
      let text = try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.stringBytes() }
      guard let milliseconds = ISO8601Timestamp.milliseconds(fromUTF8: text) else {
        throw .field(
          RecordLineError(
            field: path.text(),
            reason: "expected an ISO 8601 timestamp, found \"\(String(decoding: text, as: UTF8.self))\""))
      }
      builder.timestamp(field, milliseconds)
    case .string:
      guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
      builder.string(field, try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.stringBytes() })
    case .optionalString:
      if try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.null() }) {
        builder.string(field, nil)
      } else {
        guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
        builder.string(
          field, try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.stringBytes() })
      }
    case .optionalInteger:
      if try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.null() }) {
        builder.integer(field, nil)
      } else if next == UInt8(ascii: "-") || (next >= 48 && next <= 57),
        case .int(let number) = try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.number() })
      {
        builder.integer(field, number)
      } else {
        throw try mismatch("expected an integer", from: start)
      }
    case .freeObject:
      if try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.null() }) {
        builder.absent(field)
      } else {
        guard next == UInt8(ascii: "{") else { throw try mismatch("expected an object") }
        try lex { (cursor: inout JSONCursor) throws(JSONSyntaxError) in try builder.freeObject(field, &cursor)
        }
      }
    case .strings:
      builder.beginArray(field)
      try elements { (walk: inout RecordWalk, _) throws(RecordWalkFailure) in
        guard walk.cursor.peek == UInt8(ascii: "\"") else { throw try walk.mismatch("expected a string") }
        builder.stringElement(
          field, try walk.lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.stringBytes() })
      }
    case .object(let object):
      if try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.null() }) {
        builder.absent(field)
      } else {
        guard next == UInt8(ascii: "{") else { throw try mismatch("expected an object") }
        builder.begin(field)
        try self.object(object, &builder)
        builder.end(field)
      }
    case .objects(let object):
      builder.beginArray(field)
      try elements { (walk: inout RecordWalk, _) throws(RecordWalkFailure) in
        guard walk.cursor.peek == UInt8(ascii: "{") else { throw try walk.mismatch("expected an object") }
        builder.begin(field)
        try walk.object(object, &builder)
        builder.end(field)
      }
    }
  }

  /// Calls `element` for each element of an array (or none for `null`), the path indexed.
  private mutating func elements(_ element: (inout RecordWalk, Int) throws(RecordWalkFailure) -> Void)
    throws(RecordWalkFailure)
  {
    if try lex({ (c: inout JSONCursor) throws(JSONSyntaxError) in try c.null() }) { return }
    guard cursor.peek == UInt8(ascii: "[") else { throw try mismatch("expected an array") }
    try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.open() }
    var index = 0
    while try lex({ (cursor: inout JSONCursor) throws(JSONSyntaxError) in
      try cursor.nextElement(first: index == 0)
    }) {
      path.setIndex(index)
      try element(&self, index)
      index += 1
    }
    path.setIndex(-1)
  }

  /// The error for a value of the wrong type at the cursor: `expected …, found the integer 3`.
  private mutating func mismatch(_ expected: String, from start: Int? = nil) throws(RecordWalkFailure)
    -> RecordWalkFailure
  {
    if let start { cursor.index = start }
    let found = try lex { (c: inout JSONCursor) throws(JSONSyntaxError) in try c.value() }
    return .field(RecordLineError(field: path.text(), reason: "\(expected), found \(Self.describe(found))"))
  }

  static func describe(_ value: PropertyValue) -> String {
    switch value {
    case .string(let text): return "the string \"\(text.prefix(40))\""
    case .int(let number): return "the integer \(number)"
    case .double(let number): return "the number \(number)"
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array: return "an array"
    case .object: return "an object"
    case .date: return "a date"
    }
  }
}

extension RecordLineError {
  /// A JSON syntax error.
  init(syntax: JSONSyntaxError) { self.init(reason: syntax.reason, offset: syntax.offset) }
}
