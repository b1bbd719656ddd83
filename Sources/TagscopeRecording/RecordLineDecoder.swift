import AnalyticsHub
import Foundation

/// Reads one line of a recording (or of a `tagscope listen` stream) into a ``RecordingLine``.
///
/// A line with `format` is a header, a line with `seq` a record, a line with `dropped` (and no
/// `seq`) a drop marker. Required record fields: `seq` (integer ≥ 0), `time` (ISO 8601), `kind`,
/// `name` (strings). Every other field is optional (`null` counts as absent). Unknown fields are
/// kept in the `extra` of the record, context, session, output, header or marker. Unknown fields
/// inside a call or a violation are not kept.
///
/// Well-formed record lines take a fast path straight into the ``Record`` (twice as fast as the
/// general path, faster than Python's `json.loads` on the same lines); every other line takes the
/// general path (parse, then map), which gives the same results and the error messages.
public enum RecordLineDecoder {
  /// Decodes a line given as bytes (no trailing newline needed; a trailing `\r` is allowed).
  public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordLineError) -> RecordingLine {
    if let record = try? RecordFastPath.decode(bytes) { return .record(record) }
    return try decodeGeneral(bytes)
  }

  /// The general path: parse the JSON, then map the object (authoritative for every line).
  package static func decodeGeneral(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordLineError)
    -> RecordingLine
  {
    let value: PropertyValue
    do { value = try JSONParser.parse(bytes) } catch {
      throw RecordLineError(reason: error.reason, offset: error.offset)
    }
    guard case .object(let object) = value else {
      throw RecordLineError(reason: "a line must be a JSON object, found \(value.typeName)")
    }
    return try decode(object: object)
  }

  /// Decodes a line given as a string.
  public static func decode(_ line: String) throws(RecordLineError) -> RecordingLine {
    var line = line
    return try line.withUTF8 { bytes in Result { () throws(RecordLineError) in try decode(bytes) } }.get()
  }

  /// Decodes a line given as a byte array.
  public static func decode(_ bytes: [UInt8]) throws(RecordLineError) -> RecordingLine {
    try bytes.withUnsafeBufferPointer { buffer in Result { () throws(RecordLineError) in try decode(buffer) }
    }.get()
  }

  /// Decodes a line that must be a record.
  public static func decodeRecord(_ line: String) throws(RecordLineError) -> Record {
    switch try decode(line) {
    case .record(let record): return record
    case .header: throw RecordLineError(reason: "expected a record, found a header")
    case .dropped: throw RecordLineError(reason: "expected a record, found a drop marker")
    }
  }

  /// Maps a parsed top-level JSON object to a line.
  public static func decode(object: Properties) throws(RecordLineError) -> RecordingLine {
    var hasSeq = false
    var hasDropped = false
    for (key, _) in object {
      if key == "format" { return .header(try header(object)) }
      if key == "seq" { hasSeq = true }
      if key == "dropped" { hasDropped = true }
    }
    if hasSeq { return .record(try record(object)) }
    if hasDropped { return .dropped(try marker(object)) }
    throw RecordLineError(
      reason: "not a recording line: no 'seq' (record), 'format' (header) or 'dropped' field")
  }

  // MARK: Records

  package static func record(_ object: Properties) throws(RecordLineError) -> Record {
    var seq: UInt64?
    var time: Int64?
    var kind: String?
    var name: String?
    var eventType: EventType?
    var unknownEventType: PropertyValue?
    var properties = Properties()
    var context = RecordContext()
    var outputs: [ProviderOutput] = []
    var issues: [RecordIssue] = []
    var source: String?
    var raw: String?
    var extra = Properties()
    for (key, value) in object {
      switch key {
      case "seq":
        guard case .int(let number) = value, number >= 0 else {
          throw RecordLineError(field: "seq", reason: "expected an integer ≥ 0, found \(describe(value))")
        }
        seq = UInt64(number)
      case "time": time = try timestamp(value, "time")
      case "kind": kind = try string(value, "kind")
      case "name": name = try string(value, "name")
      case "eventType":
        if case .null = value { continue }
        let word = try string(value, "eventType")
        if let known = EventType(rawValue: word) { eventType = known } else { unknownEventType = value }
      case "properties": properties = try optionalObject(value, "properties") ?? [:]
      case "context":
        if let object = try optionalObject(value, "context") { context = try self.context(object) }
      case "outputs":
        for (index, element) in try optionalArray(value, "outputs").enumerated() {
          outputs.append(try output(element, "outputs[\(index)]"))
        }
      case "issues":
        for (index, element) in try optionalArray(value, "issues").enumerated() {
          issues.append(try issue(element, "issues[\(index)]"))
        }
      case "source": source = try optionalString(value, "source")
      case "raw": raw = try optionalString(value, "raw")
      default: extra.appendUnchecked(key, value)
      }
    }
    guard let seq else { throw RecordLineError(field: "seq", reason: "missing") }
    guard let time else { throw RecordLineError(field: "time", reason: "missing") }
    guard let kind else { throw RecordLineError(field: "kind", reason: "missing") }
    guard let name else { throw RecordLineError(field: "name", reason: "missing") }
    if let unknownEventType { extra.appendUnchecked("eventType", unknownEventType) }
    var record = Record(
      seq: seq, time: Date(recordMilliseconds: time), kind: RecordKind(rawValue: kind), name: name,
      properties: properties, eventType: eventType, context: context, outputs: outputs, issues: issues,
      source: source, raw: raw, extra: extra)
    record.timeMilliseconds = time
    return record
  }

  private static func context(_ object: Properties) throws(RecordLineError) -> RecordContext {
    var context = RecordContext()
    for (key, value) in object {
      switch key {
      case "screen": context.screen = try optionalString(value, "context.screen")
      case "history": context.history = try strings(value, "context.history")
      case "session":
        if let session = try optionalObject(value, "context.session") {
          context.session = try self.session(session)
        }
      case "timedEvents": context.timedEvents = try strings(value, "context.timedEvents")
      default: context.extra.appendUnchecked(key, value)
      }
    }
    return context
  }

  private static func session(_ object: Properties) throws(RecordLineError) -> RecordSession {
    var id: String?
    var state: String?
    var user: String?
    var properties = Properties()
    var extra = Properties()
    for (key, value) in object {
      switch key {
      case "id": id = try string(value, "context.session.id")
      case "state": state = try string(value, "context.session.state")
      case "user": user = try optionalString(value, "context.session.user")
      case "properties": properties = try optionalObject(value, "context.session.properties") ?? [:]
      default: extra.appendUnchecked(key, value)
      }
    }
    guard let id else { throw RecordLineError(field: "context.session.id", reason: "missing") }
    guard let state else { throw RecordLineError(field: "context.session.state", reason: "missing") }
    return RecordSession(id: id, state: state, user: user, properties: properties, extra: extra)
  }

  private static func output(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> ProviderOutput
  {
    guard case .object(let object) = value else {
      throw RecordLineError(field: path, reason: "expected an object, found \(describe(value))")
    }
    var provider: String?
    var status: String?
    var output = ProviderOutput(provider: "", status: .sent)
    for (key, value) in object {
      switch key {
      case "provider": provider = try string(value, path + ".provider")
      case "status": status = try string(value, path + ".status")
      case "reason": output.reason = try optionalString(value, path + ".reason")
      case "calls":
        for (index, element) in try optionalArray(value, path + ".calls").enumerated() {
          output.calls.append(try call(element, "\(path).calls[\(index)]"))
        }
      case "violations":
        for (index, element) in try optionalArray(value, path + ".violations").enumerated() {
          output.violations.append(try violation(element, "\(path).violations[\(index)]"))
        }
      default: output.extra.appendUnchecked(key, value)
      }
    }
    guard let provider else { throw RecordLineError(field: path + ".provider", reason: "missing") }
    guard let status else { throw RecordLineError(field: path + ".status", reason: "missing") }
    output.provider = provider
    output.status = OutputStatus(rawValue: status)
    return output
  }

  private static func call(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> CallDescription
  {
    guard case .object(let object) = value else {
      throw RecordLineError(field: path, reason: "expected an object, found \(describe(value))")
    }
    var method: String?
    var call = CallDescription(method: "")
    for (key, value) in object {
      switch key {
      case "method": method = try string(value, path + ".method")
      case "name": call.name = try optionalString(value, path + ".name")
      case "parameters": call.parameters = try optionalObject(value, path + ".parameters") ?? [:]
      default: continue
      }
    }
    guard let method else { throw RecordLineError(field: path + ".method", reason: "missing") }
    call.method = method
    return call
  }

  private static func violation(_ value: PropertyValue, _ path: String) throws(RecordLineError)
    -> RecordViolation
  {
    guard case .object(let object) = value else {
      throw RecordLineError(field: path, reason: "expected an object, found \(describe(value))")
    }
    var rule: String?
    var message: String?
    var consequence: String?
    var callIndex: Int?
    var errorCode: Int?
    for (key, value) in object {
      switch key {
      case "rule": rule = try string(value, path + ".rule")
      case "message": message = try string(value, path + ".message")
      case "consequence": consequence = try string(value, path + ".consequence")
      case "callIndex": callIndex = try optionalInt(value, path + ".callIndex")
      case "errorCode": errorCode = try optionalInt(value, path + ".errorCode")
      default: continue
      }
    }
    guard let rule else { throw RecordLineError(field: path + ".rule", reason: "missing") }
    guard let message else { throw RecordLineError(field: path + ".message", reason: "missing") }
    guard let consequence else { throw RecordLineError(field: path + ".consequence", reason: "missing") }
    return RecordViolation(
      rule: rule, message: message, consequence: consequence, callIndex: callIndex, errorCode: errorCode)
  }

  private static func issue(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> RecordIssue {
    guard case .object(let object) = value else {
      throw RecordLineError(field: path, reason: "expected an object, found \(describe(value))")
    }
    guard let code = object["code"] else { throw RecordLineError(field: path + ".code", reason: "missing") }
    guard let message = object["message"] else {
      throw RecordLineError(field: path + ".message", reason: "missing")
    }
    return RecordIssue(
      code: try string(code, path + ".code"), message: try string(message, path + ".message"))
  }

  // MARK: Header and marker

  package static func header(_ object: Properties) throws(RecordLineError) -> RecordingHeader {
    var header = RecordingHeader()
    var hasVersion = false
    for (key, value) in object {
      switch key {
      case "format":
        header.format = try string(value, "format")
        guard header.format == RecordingHeader.formatName else {
          throw RecordLineError(
            field: "format", reason: "expected \"\(RecordingHeader.formatName)\", found \"\(header.format)\"")
        }
      case "version":
        guard case .int(let version) = value else {
          throw RecordLineError(field: "version", reason: "expected an integer, found \(describe(value))")
        }
        header.version = version
        hasVersion = true
      case "app": header.app = try optionalString(value, "app")
      case "device": header.device = try optionalString(value, "device")
      case "started":
        if case .null = value { continue }
        header.startedMilliseconds = try timestamp(value, "started")
      default: header.extra.appendUnchecked(key, value)
      }
    }
    guard hasVersion else { throw RecordLineError(field: "version", reason: "missing") }
    return header
  }

  package static func marker(_ object: Properties) throws(RecordLineError) -> DropMarker {
    var marker = DropMarker(count: 0, time: Date(recordMilliseconds: 0), origin: "")
    var hasTime = false
    for (key, value) in object {
      switch key {
      case "dropped":
        guard case .int(let count) = value, count >= 0 else {
          throw RecordLineError(field: "dropped", reason: "expected an integer ≥ 0, found \(describe(value))")
        }
        marker.count = count
      case "time":
        marker.timeMilliseconds = try timestamp(value, "time")
        hasTime = true
      case "afterSeq":
        if case .null = value { continue }
        guard case .int(let seq) = value, seq >= 0 else {
          throw RecordLineError(
            field: "afterSeq", reason: "expected an integer ≥ 0, found \(describe(value))")
        }
        marker.afterSeq = UInt64(seq)
      case "by": marker.origin = try optionalString(value, "by") ?? ""
      default: marker.extra.appendUnchecked(key, value)
      }
    }
    guard hasTime else { throw RecordLineError(field: "time", reason: "missing") }
    return marker
  }

  // MARK: Typed fields

  private static func string(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> String {
    guard case .string(let text) = value else {
      throw RecordLineError(field: path, reason: "expected a string, found \(describe(value))")
    }
    return text
  }

  private static func optionalString(_ value: PropertyValue, _ path: String) throws(RecordLineError)
    -> String?
  {
    if case .null = value { return nil }
    return try string(value, path)
  }

  private static func optionalInt(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> Int? {
    switch value {
    case .null: return nil
    case .int(let number): return number
    default: throw RecordLineError(field: path, reason: "expected an integer, found \(describe(value))")
    }
  }

  private static func optionalObject(_ value: PropertyValue, _ path: String) throws(RecordLineError)
    -> Properties?
  {
    switch value {
    case .null: return nil
    case .object(let object): return object
    default: throw RecordLineError(field: path, reason: "expected an object, found \(describe(value))")
    }
  }

  private static func optionalArray(_ value: PropertyValue, _ path: String) throws(RecordLineError)
    -> [PropertyValue]
  {
    switch value {
    case .null: return []
    case .array(let values): return values
    default: throw RecordLineError(field: path, reason: "expected an array, found \(describe(value))")
    }
  }

  private static func strings(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> [String] {
    var out: [String] = []
    for (index, element) in try optionalArray(value, path).enumerated() {
      out.append(try string(element, "\(path)[\(index)]"))
    }
    return out
  }

  private static func timestamp(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> Int64 {
    let text = try string(value, path)
    guard let milliseconds = ISO8601Timestamp.milliseconds(from: text) else {
      throw RecordLineError(field: path, reason: "expected an ISO 8601 timestamp, found \"\(text)\"")
    }
    return milliseconds
  }

  private static func describe(_ value: PropertyValue) -> String {
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
