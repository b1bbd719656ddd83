/// Writes JSON into a growable byte buffer it owns for the duration of a ``write(into:_:)``,
/// ``string(capacity:pretty:escaping:_:)`` or ``stream(chunkSize:to:_:)`` call: strings escaped per
/// RFC 8259, integers and doubles in their shortest exact form, non-finite doubles as `null`. Raw
/// pointers rather than `[UInt8]` appends, so writing a byte is a compare and a store.
///
/// Compact by default; pretty (``string(capacity:pretty:escaping:_:)``) puts each key and array
/// element on its own line, indented by two spaces a level, with the keys in the order written.
package struct JSONWriter {
  @usableFromInline var base: UnsafeMutablePointer<UInt8>
  @usableFromInline var count = 0
  @usableFromInline var capacity: Int
  /// Whether keys and elements go on lines of their own.
  @usableFromInline let pretty: Bool
  /// Scalars every string (keys included) also writes as `\u` escapes.
  @usableFromInline let escaping: ((Unicode.Scalar) -> Bool)?
  /// Objects and arrays open, the indentation of the next line in pretty mode.
  @usableFromInline var depth = 0
  /// Where a streaming writer hands full buffers, and the first error it threw.
  @usableFromInline var sink: ((UnsafeBufferPointer<UInt8>) throws -> Void)?
  @usableFromInline var sinkError: (any Error)?

  /// Also writes U+2028 and U+2029 in strings and keys as `\u` escapes, so the JSON can be
  /// embedded in a script.
  package var escapesLineSeparators = false

  @inlinable init(capacity: Int, pretty: Bool = false, escaping: ((Unicode.Scalar) -> Bool)? = nil) {
    self.capacity = max(64, capacity)
    self.pretty = pretty
    self.escaping = escaping
    base = .allocate(capacity: self.capacity)
  }

  /// Runs `body` with a compact writer and appends what it wrote to `bytes`.
  @inlinable package static func write(
    into bytes: inout [UInt8], capacity: Int = 1024, _ body: (inout JSONWriter) -> Void
  ) {
    var writer = JSONWriter(capacity: capacity)
    body(&writer)
    bytes.append(contentsOf: UnsafeBufferPointer(start: writer.base, count: writer.count))
    writer.base.deallocate()
  }

  /// Runs `body` with a writer and returns what it wrote as a string: compact, or `pretty`, with
  /// the scalars `escaping` selects also written as `\u` escapes in every string.
  @inlinable package static func string(
    capacity: Int = 1024, pretty: Bool = false, escaping: ((Unicode.Scalar) -> Bool)? = nil,
    _ body: (inout JSONWriter) -> Void
  ) -> String {
    var writer = JSONWriter(capacity: capacity, pretty: pretty, escaping: escaping)
    body(&writer)
    let text = String(decoding: UnsafeBufferPointer(start: writer.base, count: writer.count), as: UTF8.self)
    writer.base.deallocate()
    return text
  }

  /// Runs `body` with a writer that hands what it writes to `sink` whenever about `chunkSize`
  /// bytes are buffered, and at the end, instead of keeping it all. Throws the first error `sink`
  /// throws; what is written after it is dropped.
  @inlinable package static func stream(
    chunkSize: Int = 1 << 16, to sink: (UnsafeBufferPointer<UInt8>) throws -> Void,
    _ body: (inout JSONWriter) -> Void
  ) throws {
    try withoutActuallyEscaping(sink) { sink in
      var writer = JSONWriter(capacity: chunkSize)
      defer { writer.base.deallocate() }
      writer.sink = sink
      body(&writer)
      writer.flush()
      if let error = writer.sinkError { throw error }
    }
  }

  @inline(__always)
  @inlinable mutating func reserve(_ extra: Int) {
    if count + extra > capacity { grow(extra) }
  }

  /// Makes room for `extra` more bytes: a streaming writer first hands what it holds to its sink.
  @inlinable mutating func grow(_ extra: Int) {
    if sink != nil {
      flush()
      if extra <= capacity { return }
    }
    let needed = count + extra
    let newCapacity = max(capacity * 2, needed)
    let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
    grown.update(from: base, count: count)
    base.deallocate()
    base = grown
    capacity = newCapacity
  }

  /// Hands the buffered bytes to the sink (the first error is kept, later output dropped).
  @inlinable mutating func flush() {
    guard count > 0, let sink else { return }
    if sinkError == nil {
      do { try sink(UnsafeBufferPointer(start: base, count: count)) } catch { sinkError = error }
    }
    count = 0
  }

  @inline(__always)
  @inlinable package mutating func byte(_ value: UInt8) {
    reserve(1)
    base[count] = value
    count += 1
  }

  @inlinable mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
    guard let source = bytes.baseAddress, bytes.count > 0 else { return }
    reserve(bytes.count)
    (base + count).update(from: source, count: bytes.count)
    count += bytes.count
  }

  /// Appends bytes some writer already wrote (JSON kept from an earlier write), as they are.
  @inlinable package mutating func raw(bytes: UnsafeBufferPointer<UInt8>) { append(bytes) }

  /// Appends ASCII text as is (field names and punctuation written by the encoder).
  @inlinable package mutating func raw(_ text: StaticString) {
    append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
  }

  /// `{`, closed by ``closeObject()``.
  @inline(__always)
  @inlinable package mutating func openObject() { open(UInt8(ascii: "{")) }

  /// `}` of the innermost open object.
  @inline(__always)
  @inlinable package mutating func closeObject() { close(UInt8(ascii: "}")) }

  /// `[`, closed by ``closeArray()``.
  @inline(__always)
  @inlinable package mutating func openArray() { open(UInt8(ascii: "[")) }

  /// `]` of the innermost open array.
  @inline(__always)
  @inlinable package mutating func closeArray() { close(UInt8(ascii: "]")) }

  /// What comes before an array element: a comma unless it is the first, and in pretty mode a new
  /// line.
  @inline(__always)
  @inlinable package mutating func element(first: Bool) {
    if !first { byte(UInt8(ascii: ",")) }
    if pretty { newline() }
  }

  @inline(__always)
  @inlinable mutating func open(_ bracket: UInt8) {
    byte(bracket)
    depth += 1
  }

  @inline(__always)
  @inlinable mutating func close(_ bracket: UInt8) {
    depth -= 1
    // No value ends in `{` or `[`: either as the last byte means the object or array is empty.
    if pretty && base[count - 1] != UInt8(ascii: "{") && base[count - 1] != UInt8(ascii: "[") { newline() }
    byte(bracket)
  }

  /// A line break and the indentation of the current depth.
  @inlinable mutating func newline() {
    let width = 2 * depth
    reserve(1 + width)
    base[count] = UInt8(ascii: "\n")
    (base + count + 1).update(repeating: UInt8(ascii: " "), count: width)
    count += 1 + width
  }

  /// `"key":` for a field, after a comma unless it is the first.
  @inlinable package mutating func key(_ name: StaticString, first: Bool = false) {
    guard !pretty else {
      element(first: first)
      byte(UInt8(ascii: "\""))
      raw(name)
      raw("\": ")
      return
    }
    let length = name.utf8CodeUnitCount
    reserve(length + 4)
    if !first {
      base[count] = UInt8(ascii: ",")
      count += 1
    }
    base[count] = UInt8(ascii: "\"")
    (base + count + 1).update(from: name.utf8Start, count: length)
    base[count + 1 + length] = UInt8(ascii: "\"")
    base[count + 2 + length] = UInt8(ascii: ":")
    count += length + 3
  }

  /// `"key":` for a runtime key (escaped).
  @inlinable package mutating func key(_ name: String, first: Bool) {
    element(first: first)
    string(name)
    byte(UInt8(ascii: ":"))
    if pretty { byte(UInt8(ascii: " ")) }
  }

  @inlinable package mutating func string(_ text: String) {
    if let escaping {
      string(text, escaping: escaping)
      return
    }
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { appendEscaped($0) }
    if done == nil { Array(text.utf8).withUnsafeBufferPointer { appendEscaped($0) } }
  }

  /// `text` as a string, or `null`.
  @inlinable package mutating func string(orNull text: String?) {
    if let text { string(text) } else { raw("null") }
  }

  /// A string, with the scalars `escaping` selects also written as `\u` escapes (UTF-16 units);
  /// control characters, quotes and backslashes keep their usual escapes.
  @inlinable package mutating func string(_ text: String, escaping: (Unicode.Scalar) -> Bool) {
    byte(UInt8(ascii: "\""))
    var run = ""
    for scalar in text.unicodeScalars {
      guard scalar.value >= 0x20, scalar != "\"", scalar != "\\", escaping(scalar) else {
        run.unicodeScalars.append(scalar)
        continue
      }
      appendUnquoted(run)
      run = ""
      for unit in String(scalar).utf16 {
        raw("\\u")
        for shift in [12, 8, 4, 0] { byte(Self.hexDigit(UInt8(unit >> UInt16(shift) & 0xF))) }
      }
    }
    appendUnquoted(run)
    byte(UInt8(ascii: "\""))
  }

  /// The escaped contents of a string, without quotes.
  @inlinable mutating func appendUnquoted(_ text: String) {
    guard !text.isEmpty else { return }
    var copy = text
    copy.withUTF8 { appendEscaped($0, quoted: false) }
  }

  @inlinable mutating func appendEscaped(_ utf8: UnsafeBufferPointer<UInt8>, quoted: Bool = true) {
    if escapesLineSeparators {
      appendEscaped(utf8, quoted: quoted, lineSeparators: true)
    } else {
      appendEscaped(utf8, quoted: quoted, lineSeparators: false)
    }
  }

  /// Specialized for each value of `lineSeparators`, so the usual case scans as before.
  @inline(__always)
  @inlinable mutating func appendEscaped(
    _ utf8: UnsafeBufferPointer<UInt8>, quoted: Bool, lineSeparators: Bool
  ) {
    if quoted { byte(UInt8(ascii: "\"")) }
    var runStart = 0
    var index = 0
    let count = utf8.count
    while index < count {
      let byte = utf8[index]
      if byte >= 0x20 && byte != 0x22 && byte != 0x5C && !(lineSeparators && byte == 0xE2) {
        index += 1
        continue
      }
      if byte == 0xE2 {
        // U+2028 and U+2029 are E2 80 A8 and E2 80 A9.
        guard index + 2 < count, utf8[index + 1] == 0x80, utf8[index + 2] & 0xFE == 0xA8 else {
          index += 1
          continue
        }
        if runStart < index { append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
        raw(utf8[index + 2] == 0xA8 ? "\\u2028" : "\\u2029")
        index += 3
        runStart = index
        continue
      }
      if runStart < index { append(UnsafeBufferPointer(rebasing: utf8[runStart..<index])) }
      reserve(6)
      base[self.count] = UInt8(ascii: "\\")
      switch byte {
      case 0x22: base[self.count + 1] = 0x22
      case 0x5C: base[self.count + 1] = 0x5C
      case 0x0A: base[self.count + 1] = UInt8(ascii: "n")
      case 0x0D: base[self.count + 1] = UInt8(ascii: "r")
      case 0x09: base[self.count + 1] = UInt8(ascii: "t")
      case 0x08: base[self.count + 1] = UInt8(ascii: "b")
      case 0x0C: base[self.count + 1] = UInt8(ascii: "f")
      default:
        base[self.count + 1] = UInt8(ascii: "u")
        base[self.count + 2] = UInt8(ascii: "0")
        base[self.count + 3] = UInt8(ascii: "0")
        base[self.count + 4] = Self.hexDigit(byte >> 4)
        base[self.count + 5] = Self.hexDigit(byte & 0xF)
        self.count += 4
      }
      self.count += 2
      index += 1
      runStart = index
    }
    if runStart < count { append(UnsafeBufferPointer(rebasing: utf8[runStart..<count])) }
    if quoted { byte(UInt8(ascii: "\"")) }
  }

  @inlinable static func hexDigit(_ value: UInt8) -> UInt8 { value < 10 ? 48 + value : 87 + value }

  /// `value` as a number.
  @inlinable package mutating func int(_ value: Int) { int(Int64(value)) }

  /// `value`, or `null`.
  @inlinable package mutating func int(orNull value: Int?) {
    if let value { int(value) } else { raw("null") }
  }

  @inlinable package mutating func int(_ value: Int64) {
    if value < 0 {
      byte(UInt8(ascii: "-"))
      unsigned(value.magnitude)
    } else {
      unsigned(UInt64(value))
    }
  }

  @inlinable package mutating func unsigned(_ value: UInt64) {
    var digits = 1
    var probe = value
    while probe >= 10 {
      probe /= 10
      digits += 1
    }
    reserve(digits)
    var rest = value
    var position = count + digits - 1
    repeat {
      base[position] = 48 + UInt8(rest % 10)
      rest /= 10
      position -= 1
    } while rest > 0
    count += digits
  }

  @inlinable package mutating func double(_ value: Double) {
    guard value.isFinite else {
      raw("null")
      return
    }
    string(unquoted: value.description)
  }

  @inlinable package mutating func bool(_ value: Bool) { value ? raw("true") : raw("false") }

  /// Appends ASCII text that needs no escaping, without quotes.
  @inlinable mutating func string(unquoted text: String) {
    let done: Void? = text.utf8.withContiguousStorageIfAvailable { append($0) }
    if done == nil { Array(text.utf8).withUnsafeBufferPointer { append($0) } }
  }

  @inlinable package mutating func timestamp(_ milliseconds: Int64) {
    reserve(32)
    base[count] = UInt8(ascii: "\"")
    count += 1 + ISO8601Timestamp.write(milliseconds: milliseconds, at: base + count + 1)
    base[count] = UInt8(ascii: "\"")
    count += 1
  }

  /// `{`, the fields `body` writes (its first ``key(_:first:)`` with `first: true`), `}`.
  @inlinable package mutating func object(_ body: (inout JSONWriter) -> Void) {
    openObject()
    body(&self)
    closeObject()
  }

  /// `[`, each of `elements` written by `element`, comma-separated, `]`.
  @inlinable package mutating func array<Elements: Sequence>(
    _ elements: Elements, _ element: (inout JSONWriter, Elements.Element) -> Void
  ) {
    openArray()
    var first = true
    for item in elements {
      self.element(first: first)
      first = false
      element(&self, item)
    }
    closeArray()
  }

  @inlinable package mutating func stringArray(_ values: [String]) {
    openArray()
    for (index, element) in values.enumerated() {
      self.element(first: index == 0)
      string(element)
    }
    closeArray()
  }
}
