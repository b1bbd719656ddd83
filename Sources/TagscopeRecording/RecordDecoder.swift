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

/// The one record decoder: walks a record line by the schema's table (``RecordObject``,
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
    do {
      walk.cursor.skipWhitespace()
      guard walk.cursor.peek == UInt8(ascii: "{") else { return .other }
      try walk.object(.record, &builder)
      try walk.cursor.expectEnd()
      return .record
    } catch let error as JSONSyntaxError {
      throw RecordLineError(syntax: error)
    } catch RecordWalkFailure.field {
      // A syntax error later in the line takes precedence, as when the line is parsed first;
      // so does a `format` field (a header) or the lack of `seq` (a marker) further on.
      let value: PropertyValue
      do { value = try JSONParser.parse(bytes) } catch { throw RecordLineError(syntax: error) }
      if case .object(let object) = value,
        object[LineFields.format] != nil || object[RecordField.seq.text] == nil
      {
        return .other
      }
      throw fieldError(bytes, builder: &builder)
    } catch {
      return .other
    }
  }
}

extension RecordDecoder {
  /// The field error of a line known to have one, its path named: the line walked again with
  /// the path kept.
  fileprivate static func fieldError<Builder: RecordBuilder>(
    _ bytes: UnsafeBufferPointer<UInt8>, builder: inout Builder
  ) -> RecordLineError {
    builder.reset()
    var walk = RecordWalk(bytes, tracksPath: true)
    do {
      walk.cursor.skipWhitespace()
      try walk.object(.record, &builder)
    } catch RecordWalkFailure.field(let error) {
      return error
    } catch {}
    return RecordLineError(reason: "the line could not be read as a record")
  }
}

/// Why a walk stopped, but for a syntax error.
enum RecordWalkFailure: Error {
  case field(RecordLineError)
  /// A `format` field (a header) or no `seq` (a marker or not a recording line).
  case notARecord
}

/// Where the walk is in the schema, for error messages (`outputs[1].calls[0].method`); kept
/// only on the second walk over a line with a field error.
struct FieldPath {
  private var levels: [(field: RecordField, index: Int?)] = []

  mutating func push(_ field: RecordField) { levels.append((field, nil)) }

  mutating func pop() { levels.removeLast() }

  /// Sets the array index of the innermost field.
  mutating func setIndex(_ index: Int) { levels[levels.count - 1].index = index }

  /// Forgets the array index of the innermost field.
  mutating func clearIndex() { levels[levels.count - 1].index = nil }

  /// The path, with `field` appended if given.
  func text(appending field: RecordField? = nil) -> String {
    var parts = levels.map { level in level.field.text + (level.index.map { "[\($0)]" } ?? "") }
    if let field { parts.append(field.text) }
    return parts.joined(separator: ".")
  }
}

/// One walk over one line. Its functions throw ``JSONSyntaxError`` from the lexer or
/// ``RecordWalkFailure``; both are rare, so they are thrown untyped and sorted out once, in
/// ``RecordDecoder/decode(_:into:)``.
struct RecordWalk {
  var cursor: JSONCursor
  var path = FieldPath()
  /// Whether ``path`` is kept: only when a line is walked again to name the field at fault, so
  /// the walk over good lines does not pay for it.
  let tracksPath: Bool

  init(_ bytes: UnsafeBufferPointer<UInt8>, tracksPath: Bool = false) {
    cursor = JSONCursor(bytes)
    self.tracksPath = tracksPath
  }

  /// Walks an object of the schema at the cursor (its `{` not yet consumed).
  mutating func object<Builder: RecordBuilder>(_ object: RecordObject, _ builder: inout Builder) throws {
    try cursor.open()
    var seen: UInt64 = 0
    var first = true
    while let key = try cursor.nextKey(first: first) {
      first = false
      guard let field = object.field(named: key) else {
        if object == .record, key.equals(LineFields.formatName) {
          throw RecordWalkFailure.notARecord
        }
        if object.keepsUnknownFields {
          try builder.unknown(object, key: String(decoding: key, as: UTF8.self), &cursor)
        } else {
          try cursor.skipValue()
        }
        continue
      }
      seen |= field.bit
      let start = cursor.index
      if tracksPath { path.push(field) }
      try value(field, &builder)
      if tracksPath { path.pop() }
      builder.extent(field, UnsafeBufferPointer(rebasing: cursor.bytes[start..<cursor.index]))
    }
    let missing = object.requiredMask & ~seen
    guard missing != 0 else { return }
    if object == .record, missing & RecordField.seq.bit != 0 { throw RecordWalkFailure.notARecord }
    let field = object.required.first { missing & $0.bit != 0 }!
    throw RecordWalkFailure.field(RecordLineError(field: path.text(appending: field), reason: "missing"))
  }

  private mutating func value<Builder: RecordBuilder>(_ field: RecordField, _ builder: inout Builder) throws {
    let next = cursor.peek
    let start = cursor.index
    switch field.type {
    case .unsigned:
      if next == UInt8(ascii: "-") || (next >= 48 && next <= 57) {
        switch try cursor.number() {
        case .int(let number) where number >= 0:
          builder.unsigned(field, UInt64(number))
          return
        case .largeInteger(let number):
          // Past Int.max, up to UInt64.max.
          if let unsigned = number.uint64Value {
            builder.unsigned(field, unsigned)
            return
          }
        default: break
        }
      }
      throw try mismatch("expected an integer ≥ 0", from: start)
    case .timestamp:
      guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
      let text = try cursor.stringBytes()
      guard let milliseconds = ISO8601Timestamp.milliseconds(fromUTF8: text) else {
        throw RecordWalkFailure.field(
          RecordLineError(
            field: path.text(),
            reason: "expected an ISO 8601 timestamp, found \"\(String(decoding: text, as: UTF8.self))\""))
      }
      builder.timestamp(field, milliseconds)
    case .string:
      guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
      builder.string(field, try cursor.stringBytes())
    case .optionalString:
      if try cursor.null() {
        builder.string(field, nil)
      } else {
        guard next == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
        builder.string(field, try cursor.stringBytes())
      }
    case .optionalInteger:
      if try cursor.null() {
        builder.integer(field, nil)
      } else if next == UInt8(ascii: "-") || (next >= 48 && next <= 57),
        case .int(let number) = try cursor.number()
      {
        builder.integer(field, number)
      } else {
        throw try mismatch("expected an integer", from: start)
      }
    case .freeObject:
      if try cursor.null() {
        builder.absent(field)
      } else {
        guard next == UInt8(ascii: "{") else { throw try mismatch("expected an object") }
        try builder.freeObject(field, &cursor)
      }
    case .strings:
      builder.beginArray(field)
      guard try openArray() else { return }
      var index = 0
      while try cursor.nextElement(first: index == 0) {
        if tracksPath { path.setIndex(index) }
        guard cursor.peek == UInt8(ascii: "\"") else { throw try mismatch("expected a string") }
        builder.stringElement(field, try cursor.stringBytes())
        index += 1
      }
      if tracksPath { path.clearIndex() }
    case .object(let object):
      if try cursor.null() {
        builder.absent(field)
      } else {
        guard next == UInt8(ascii: "{") else { throw try mismatch("expected an object") }
        builder.begin(field)
        try self.object(object, &builder)
        builder.end(field)
      }
    case .objects(let object):
      builder.beginArray(field)
      guard try openArray() else { return }
      var index = 0
      while try cursor.nextElement(first: index == 0) {
        if tracksPath { path.setIndex(index) }
        guard cursor.peek == UInt8(ascii: "{") else { throw try mismatch("expected an object") }
        builder.begin(field)
        try self.object(object, &builder)
        builder.end(field)
        index += 1
      }
      if tracksPath { path.clearIndex() }
    }
  }

  /// Opens the array at the cursor: `false` for `null`.
  private mutating func openArray() throws -> Bool {
    if try cursor.null() { return false }
    guard cursor.peek == UInt8(ascii: "[") else { throw try mismatch("expected an array") }
    try cursor.open()
    return true
  }

  /// The error for a value of the wrong type at the cursor: `expected …, found the integer 3`.
  private mutating func mismatch(_ expected: String, from start: Int? = nil) throws -> RecordWalkFailure {
    if let start { cursor.index = start }
    let found = try cursor.value()
    return .field(RecordLineError(field: path.text(), reason: "\(expected), found \(Self.describe(found))"))
  }

  static func describe(_ value: PropertyValue) -> String {
    switch value {
    case .string(let text): return "the string \"\(text.prefix(40))\""
    case .int(let number): return "the integer \(number)"
    case .largeInteger(let number): return "the integer \(number.text)"
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
