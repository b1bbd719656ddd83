import AnalyticsHub
import Foundation

/// The record decoder's fast path: reads a well-formed record line straight into a ``Record``,
/// without the intermediate JSON tree of the general path.
///
/// It handles the common case only; anything else (a header, a drop marker, a repeated known
/// field, a field of the wrong type, a syntax error) throws ``Fallback`` and the caller uses the
/// general path, which is authoritative. Both paths give equal records (tested on generated and
/// mutated lines).
package struct RecordFastPath {
  package typealias Fallback = FastPathFallback

  private var parser: JSONParser

  package init(_ bytes: UnsafeBufferPointer<UInt8>) { parser = JSONParser(bytes) }

  /// The record, or ``Fallback``.
  package static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(Fallback) -> Record {
    var fast = RecordFastPath(bytes)
    return try fast.record()
  }

  // MARK: Record

  private mutating func record() throws(Fallback) -> Record {
    skipWhitespace()
    try expect(UInt8(ascii: "{"))
    var seen = SeenFields()
    var seq: UInt64 = 0
    var time: Int64 = 0
    var kind = ""
    var name = ""
    var eventType: EventType?
    var unknownEventType: PropertyValue?
    var properties = Properties()
    var context = RecordContext()
    var outputs: [ProviderOutput] = []
    var issues: [RecordIssue] = []
    var source: String?
    var raw: String?
    var extra = Properties()
    var extraSeen: Set<String>?
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "seq":
        try seen.claim(1)
        guard case .int(let number) = try fast.value(), number >= 0 else { throw Fallback() }
        seq = UInt64(number)
      case "time":
        try seen.claim(2)
        guard let milliseconds = ISO8601Timestamp.milliseconds(from: try fast.string()) else {
          throw Fallback()
        }
        time = milliseconds
      case "kind":
        try seen.claim(4)
        kind = try fast.string()
      case "name":
        try seen.claim(8)
        name = try fast.string()
      case "eventType":
        try seen.claim(16)
        if try !fast.null() {
          let word = try fast.string()
          if let known = EventType(rawValue: word) {
            eventType = known
          } else {
            unknownEventType = .string(word)
          }
        }
      case "properties":
        try seen.claim(32)
        properties = try fast.null() ? [:] : try fast.object()
      case "context":
        try seen.claim(64)
        if try !fast.null() { context = try fast.context() }
      case "outputs":
        try seen.claim(128)
        if try !fast.null() {
          outputs = try fast.array { (fast: inout RecordFastPath) throws(Fallback) in try fast.output() }
        }
      case "issues":
        try seen.claim(256)
        if try !fast.null() {
          issues = try fast.array { (fast: inout RecordFastPath) throws(Fallback) in try fast.issue() }
        }
      case "source":
        try seen.claim(512)
        source = try fast.optionalString()
      case "raw":
        try seen.claim(1024)
        raw = try fast.optionalString()
      case "format", "dropped": throw Fallback()
      default: JSONParser.insert(key, try fast.value(), into: &extra, seen: &extraSeen)
      }
    }
    guard seen.contains(15) else { throw Fallback() }
    skipWhitespace()
    guard parser.index == parser.bytes.count else { throw Fallback() }
    if let unknownEventType { extra.appendUnchecked("eventType", unknownEventType) }
    var record = Record(
      seq: seq, time: Date(recordMilliseconds: time), kind: RecordKind(rawValue: kind), name: name,
      properties: properties, eventType: eventType, context: context, outputs: outputs, issues: issues,
      source: source, raw: raw, extra: extra)
    record.timeMilliseconds = time
    return record
  }

  private mutating func context() throws(Fallback) -> RecordContext {
    try expect(UInt8(ascii: "{"))
    var context = RecordContext()
    var seen = SeenFields()
    var extraSeen: Set<String>?
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "screen":
        try seen.claim(1)
        context.screen = try fast.optionalString()
      case "history":
        try seen.claim(2)
        context.history = try fast.strings()
      case "session":
        try seen.claim(4)
        if try !fast.null() { context.session = try fast.session() }
      case "timedEvents":
        try seen.claim(8)
        context.timedEvents = try fast.strings()
      default: JSONParser.insert(key, try fast.value(), into: &context.extra, seen: &extraSeen)
      }
    }
    return context
  }

  private mutating func session() throws(Fallback) -> RecordSession {
    try expect(UInt8(ascii: "{"))
    var session = RecordSession(id: "", state: "")
    var seen = SeenFields()
    var extraSeen: Set<String>?
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "id":
        try seen.claim(1)
        session.id = try fast.string()
      case "state":
        try seen.claim(2)
        session.state = try fast.string()
      case "user":
        try seen.claim(4)
        session.user = try fast.optionalString()
      case "properties":
        try seen.claim(8)
        session.properties = try fast.null() ? [:] : try fast.object()
      default: JSONParser.insert(key, try fast.value(), into: &session.extra, seen: &extraSeen)
      }
    }
    guard seen.contains(3) else { throw Fallback() }
    return session
  }

  private mutating func output() throws(Fallback) -> ProviderOutput {
    try expect(UInt8(ascii: "{"))
    var output = ProviderOutput(provider: "", status: .sent)
    var seen = SeenFields()
    var extraSeen: Set<String>?
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "provider":
        try seen.claim(1)
        output.provider = try fast.string()
      case "status":
        try seen.claim(2)
        output.status = OutputStatus(rawValue: try fast.string())
      case "reason":
        try seen.claim(4)
        output.reason = try fast.optionalString()
      case "calls":
        try seen.claim(8)
        if try !fast.null() {
          output.calls = try fast.array { (fast: inout RecordFastPath) throws(Fallback) in try fast.call() }
        }
      case "violations":
        try seen.claim(16)
        if try !fast.null() {
          output.violations = try fast.array { (fast: inout RecordFastPath) throws(Fallback) in
            try fast.violation()
          }
        }
      default: JSONParser.insert(key, try fast.value(), into: &output.extra, seen: &extraSeen)
      }
    }
    guard seen.contains(3) else { throw Fallback() }
    return output
  }

  private mutating func call() throws(Fallback) -> CallDescription {
    try expect(UInt8(ascii: "{"))
    var call = CallDescription(method: "")
    var seen = SeenFields()
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "method":
        try seen.claim(1)
        call.method = try fast.string()
      case "name":
        try seen.claim(2)
        call.name = try fast.optionalString()
      case "parameters":
        try seen.claim(4)
        call.parameters = try fast.null() ? [:] : try fast.object()
      default: _ = try fast.value()
      }
    }
    guard seen.contains(1) else { throw Fallback() }
    return call
  }

  private mutating func violation() throws(Fallback) -> RecordViolation {
    try expect(UInt8(ascii: "{"))
    var violation = RecordViolation(rule: "", message: "", consequence: "")
    var seen = SeenFields()
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "rule":
        try seen.claim(1)
        violation.rule = try fast.string()
      case "message":
        try seen.claim(2)
        violation.message = try fast.string()
      case "consequence":
        try seen.claim(4)
        violation.consequence = try fast.string()
      case "callIndex":
        try seen.claim(8)
        violation.callIndex = try fast.optionalInt()
      case "errorCode":
        try seen.claim(16)
        violation.errorCode = try fast.optionalInt()
      default: _ = try fast.value()
      }
    }
    guard seen.contains(7) else { throw Fallback() }
    return violation
  }

  private mutating func issue() throws(Fallback) -> RecordIssue {
    try expect(UInt8(ascii: "{"))
    var issue = RecordIssue(code: "", message: "")
    var seen = SeenFields()
    try members { (fast: inout RecordFastPath, key: String) throws(Fallback) in
      switch key {
      case "code":
        try seen.claim(1)
        issue.code = try fast.string()
      case "message":
        try seen.claim(2)
        issue.message = try fast.string()
      default: _ = try fast.value()
      }
    }
    guard seen.contains(3) else { throw Fallback() }
    return issue
  }

  // MARK: Pieces

  /// Calls `member` for each key of an object whose `{` was consumed.
  private mutating func members(_ member: (inout RecordFastPath, String) throws(Fallback) -> Void)
    throws(Fallback)
  {
    try enter()
    defer { parser.depth -= 1 }
    skipWhitespace()
    if peek == UInt8(ascii: "}") {
      parser.index += 1
      return
    }
    while true {
      skipWhitespace()
      guard peek == UInt8(ascii: "\"") else { throw Fallback() }
      let key = try string()
      skipWhitespace()
      try expect(UInt8(ascii: ":"))
      skipWhitespace()
      try member(&self, key)
      skipWhitespace()
      guard parser.index < parser.bytes.count else { throw Fallback() }
      let byte = parser.bytes[parser.index]
      parser.index += 1
      if byte == UInt8(ascii: ",") { continue }
      guard byte == UInt8(ascii: "}") else { throw Fallback() }
      return
    }
  }

  /// The elements of an array (its `[` not yet consumed).
  private mutating func array<Element>(_ element: (inout RecordFastPath) throws(Fallback) -> Element)
    throws(Fallback)
    -> [Element]
  {
    try expect(UInt8(ascii: "["))
    try enter()
    defer { parser.depth -= 1 }
    var out: [Element] = []
    skipWhitespace()
    if peek == UInt8(ascii: "]") {
      parser.index += 1
      return out
    }
    while true {
      skipWhitespace()
      out.append(try element(&self))
      skipWhitespace()
      guard parser.index < parser.bytes.count else { throw Fallback() }
      let byte = parser.bytes[parser.index]
      parser.index += 1
      if byte == UInt8(ascii: ",") { continue }
      guard byte == UInt8(ascii: "]") else { throw Fallback() }
      return out
    }
  }

  /// One level deeper, counted like the general parser counts it.
  private mutating func enter() throws(Fallback) {
    parser.depth += 1
    guard parser.depth <= JSONParser.maximumDepth else { throw Fallback() }
  }

  private var peek: UInt8 { parser.index < parser.bytes.count ? parser.bytes[parser.index] : 0 }

  private mutating func skipWhitespace() { parser.skipWhitespace() }

  private mutating func expect(_ byte: UInt8) throws(Fallback) {
    guard peek == byte else { throw Fallback() }
    parser.index += 1
  }

  /// Consumes `null` if it is next.
  private mutating func null() throws(Fallback) -> Bool {
    guard peek == UInt8(ascii: "n") else { return false }
    guard case .null = try value() else { throw Fallback() }
    return true
  }

  private mutating func value() throws(Fallback) -> PropertyValue {
    do { return try parser.parseValue() } catch { throw Fallback() }
  }

  private mutating func string() throws(Fallback) -> String {
    guard peek == UInt8(ascii: "\"") else { throw Fallback() }
    do { return try parser.parseString() } catch { throw Fallback() }
  }

  private mutating func optionalString() throws(Fallback) -> String? {
    try null() ? nil : try string()
  }

  private mutating func optionalInt() throws(Fallback) -> Int? {
    if try null() { return nil }
    guard case .int(let number) = try value() else { throw Fallback() }
    return number
  }

  private mutating func object() throws(Fallback) -> Properties {
    guard peek == UInt8(ascii: "{") else { throw Fallback() }
    do { return try parser.parseObject() } catch { throw Fallback() }
  }

  private mutating func strings() throws(Fallback) -> [String] {
    if try null() { return [] }
    return try array { (fast: inout RecordFastPath) throws(Fallback) in try fast.string() }
  }
}
