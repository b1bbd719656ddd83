import Foundation
import TagscopeBasics
import TagscopeRecording

/// Reads one `log.entries[i]` object into a ``HAREntry`` with the one JSON lexer (``JSONCursor``),
/// from its place in the file's bytes, building only the fields a decoder needs: every other field
/// is skipped unread. A field of the wrong type, a missing one or a body in an unknown encoding is
/// a ``HARProblem`` naming the field.
struct HAREntryReader {
  private(set) var cursor: JSONCursor
  private let entry: Int

  /// A reader of the entry `entry` that starts at `offset` in `bytes`, `depth` arrays and objects
  /// deep.
  init(_ bytes: UnsafeBufferPointer<UInt8>, offset: Int, entry: Int, depth: Int = 0) {
    cursor = JSONCursor(bytes)
    cursor.index = offset
    cursor.depth = depth
    self.entry = entry
  }

  /// The entry, or what is wrong with it.
  mutating func read() throws(HARProblem) -> HAREntry {
    var started: Date?
    var request = RequestFields()
    var status: Int?
    try members(of: "entry") { (key, reader) throws(HARProblem) in
      switch key {
      case "startedDateTime":
        let text = try reader.string("startedDateTime")
        guard let milliseconds = ISO8601Timestamp.milliseconds(from: text) else {
          throw reader.problem("startedDateTime", "\"\(text.prefix(40))\" is no ISO 8601 date and time")
        }
        started = ISO8601Timestamp.date(milliseconds: milliseconds)
      case "request": request = try reader.request()
      case "response": status = try reader.responseStatus()
      default: try reader.skip(key)
      }
    }
    guard let started else { throw problem("startedDateTime", "missing") }
    guard let method = request.method else { throw problem("request.method", "missing") }
    guard let url = request.url else { throw problem("request.url", "missing") }
    return HAREntry(
      index: entry, started: started, method: method, url: url, headers: request.headers,
      body: try request.decodedBody(entry: entry), mimeType: request.mimeType,
      responseStatus: status.flatMap { $0 > 0 ? $0 : nil })
  }

  /// The request's fields as read.
  private struct RequestFields {
    var method: String?
    var url: String?
    var headers: [(name: String, value: String)] = []
    /// `postData.text`'s bytes, escapes decoded: copied once from the file, never as a `String`.
    var text: [UInt8]?
    var mimeType: String?
    var encoding: (field: String, value: String)?

    /// The body, base64 undone when `encoding` says so.
    func decodedBody(entry: Int) throws(HARProblem) -> [UInt8]? {
      guard let text else { return nil }
      guard let encoding else { return text }
      guard encoding.value == "base64" else {
        throw HARProblem(
          entry: entry, field: "request.postData.\(encoding.field)",
          message: "unknown encoding \"\(encoding.value.prefix(40))\" (base64, or none for text)")
      }
      guard let bytes = Base64.decode(String(decoding: text, as: UTF8.self)) else {
        throw HARProblem(
          entry: entry, field: "request.postData.text", message: "not base64, as its encoding says")
      }
      return bytes
    }
  }

  private mutating func request() throws(HARProblem) -> RequestFields {
    var fields = RequestFields()
    try members(of: "request") { (key, reader) throws(HARProblem) in
      switch key {
      case "method": fields.method = try reader.string("request.method")
      case "url": fields.url = try reader.string("request.url")
      case "headers": fields.headers = try reader.headers()
      case "postData":
        try reader.members(of: "request.postData") { (key, reader) throws(HARProblem) in
          switch key {
          case "text":
            let start = reader.cursor.index
            let text = try reader.stringBytes("request.postData.text")
            fields.text = Array(text)
            // Escapes decoded into the cursor's scratch: only then can the source hold `\u`.
            if !Self.lies(text, in: reader.cursor.bytes),
              Self.hasEscapedBytes(
                UnsafeBufferPointer(rebasing: reader.cursor.bytes[start..<reader.cursor.index]))
            {
              throw reader.problem(
                "request.postData.text",
                "a binary body written as text with its bytes escaped as lone surrogates (\\udc80…\\udcff, "
                  + "mitmproxy's hardump of a body that is not text): its bytes cannot be read back")
            }
          case "mimeType": fields.mimeType = try reader.string("request.postData.mimeType")
          // Not in HAR 1.2, which has it for response content only; tools write it for binary
          // request bodies too, as `encoding` or `_encoding`.
          case "encoding", "_encoding":
            if try reader.isNull() { return }
            fields.encoding = (key, try reader.string("request.postData.\(key)"))
          default: try reader.skip("request.postData.\(key)")
          }
        }
      default: try reader.skip("request.\(key)")
      }
    }
    return fields
  }

  /// Whether a JSON string's source holds a lone `\udc80`…`\udcff` escape: a lone surrogate Python's
  /// `surrogateescape` makes of a byte that is not UTF-8, which JSON cannot give back.
  static func hasEscapedBytes(_ source: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let base = source.baseAddress else { return false }
    var index = 0
    while index + 5 < source.count {
      // To the next `\`, as libc finds a byte: most of a body is no escape.
      guard let found = memchr(base + index, Int32(UInt8(ascii: "\\")), source.count - index) else {
        return false
      }
      index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
      guard index + 5 < source.count else { return false }
      guard source[index + 1] == UInt8(ascii: "u") else {
        index += 2
        continue
      }
      let (d, c, n) = (source[index + 2] | 0x20, source[index + 3] | 0x20, source[index + 4] | 0x20)
      if d == UInt8(ascii: "d"),
        [UInt8(ascii: "8"), UInt8(ascii: "9"), UInt8(ascii: "a"), UInt8(ascii: "b")].contains(c)
      {
        index += 12  // a high surrogate and the low one that pairs with it
        continue
      }
      if d == UInt8(ascii: "d"), c == UInt8(ascii: "c"),
        n == UInt8(ascii: "8") || n == UInt8(ascii: "9")
          || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(n)
      {
        return true
      }
      index += 6
    }
    return false
  }

  private mutating func headers() throws(HARProblem) -> [(name: String, value: String)] {
    var headers: [(name: String, value: String)] = []
    try elements(of: "request.headers") { (index, reader) throws(HARProblem) in
      // Built only for a problem: an entry's headers are most of its fields.
      func field(_ member: String = "") -> String { "request.headers[\(index)]" + member }
      var (name, value): (String?, String?) = (nil, nil)
      try reader.members(of: field()) { (key, reader) throws(HARProblem) in
        switch key {
        case "name": name = try reader.string(field(".name"))
        case "value": value = try reader.string(field(".value"))
        default: try reader.skip(field("." + key))
        }
      }
      guard let name, let value else { throw reader.problem(field(), "a header needs a name and a value") }
      headers.append((name, value))
    }
    return headers
  }

  private mutating func responseStatus() throws(HARProblem) -> Int? {
    var status: Int?
    try members(of: "response") { (key, reader) throws(HARProblem) in
      guard key == "status" else { return try reader.skip("response.\(key)") }
      guard
        case .int(let number) = try reader.syntax(
          "response.status",
          { c throws(JSONSyntaxError) in
            guard c.peek == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c.peek)
            else {
              throw c.error("a number expected")
            }
            return try c.number()
          })
      else { throw reader.problem("response.status", "not an integer") }
      status = number
    }
    return status
  }

  // MARK: Steps

  // A step's `field` is built only when it reports a problem.

  /// Calls `each` with every member's key, the cursor on its value, which `each` must read or skip.
  private mutating func members(
    of field: @autoclosure () -> String, _ each: (String, inout HAREntryReader) throws(HARProblem) -> Void
  ) throws(HARProblem) {
    guard cursor.peek == UInt8(ascii: "{") else { throw problem(field(), "an object expected") }
    try syntax(field()) { c throws(JSONSyntaxError) in try c.open() }
    var first = true
    while let key = try syntax(field(), { c throws(JSONSyntaxError) in try c.nextKey(first: first) }) {
      first = false
      try each(String(decoding: key, as: UTF8.self), &self)
    }
  }

  /// Calls `each` with every element's index, the cursor on it.
  private mutating func elements(
    of field: @autoclosure () -> String, _ each: (Int, inout HAREntryReader) throws(HARProblem) -> Void
  ) throws(HARProblem) {
    guard cursor.peek == UInt8(ascii: "[") else { throw problem(field(), "an array expected") }
    try syntax(field()) { c throws(JSONSyntaxError) in try c.open() }
    var index = 0
    while try syntax(field(), { c throws(JSONSyntaxError) in try c.nextElement(first: index == 0) }) {
      try each(index, &self)
      index += 1
    }
  }

  private mutating func string(_ field: @autoclosure () -> String) throws(HARProblem) -> String {
    String(decoding: try stringBytes(field()), as: UTF8.self)
  }

  /// A string's bytes, escapes decoded: valid until the next string is read.
  private mutating func stringBytes(_ field: @autoclosure () -> String) throws(HARProblem)
    -> UnsafeBufferPointer<UInt8>
  {
    guard cursor.peek == UInt8(ascii: "\"") else { throw problem(field(), "a string expected") }
    return try syntax(field()) { c throws(JSONSyntaxError) in try c.stringBytes() }
  }

  /// Whether `part` lies in `whole` (a string read without escapes is a slice of the file).
  private static func lies(_ part: UnsafeBufferPointer<UInt8>, in whole: UnsafeBufferPointer<UInt8>) -> Bool {
    guard let start = part.baseAddress, let base = whole.baseAddress else { return part.isEmpty }
    return start >= base && start + part.count <= base + whole.count
  }

  private mutating func isNull() throws(HARProblem) -> Bool {
    try syntax("null") { c throws(JSONSyntaxError) in try c.null() }
  }

  private mutating func skip(_ field: @autoclosure () -> String) throws(HARProblem) {
    try syntax(field()) { c throws(JSONSyntaxError) in try c.skipValue() }
  }

  private mutating func syntax<T>(
    _ field: @autoclosure () -> String, _ step: (inout JSONCursor) throws(JSONSyntaxError) -> T
  ) throws(HARProblem) -> T {
    do {
      return try step(&cursor)
    } catch {
      throw problem(field(), "\(error.reason) at byte \(error.offset + 1) of the file")
    }
  }

  private func problem(_ field: String, _ message: String) -> HARProblem {
    HARProblem(entry: entry, field: field, message: message)
  }
}
