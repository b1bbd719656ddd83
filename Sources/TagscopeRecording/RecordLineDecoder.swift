import AnalyticsHub
import Foundation

/// Reads one line of a recording (or of a `tagscope listen` stream) into a ``RecordingLine``.
///
/// A line with `format` is a header, a line with `seq` a record, a line with `dropped` (and no
/// `seq`) a drop marker. Required record fields: `seq` (integer ≥ 0), `time` (ISO 8601), `kind`,
/// `name` (strings). Every other field is optional (`null` counts as absent). Unknown fields are
/// kept in the `extra` of the record, context, session, output, header or marker. Unknown fields
/// inside a call or a violation are not kept. A field given twice keeps its last value.
///
/// Records go through the one record decoder (``RecordDecoder``, straight from the bytes into the
/// ``Record``); headers and markers, one per file or gap, are parsed into a tree and mapped.
public enum RecordLineDecoder {
  /// Decodes a line given as bytes (no trailing newline needed; a trailing `\r` is allowed).
  public static func decode(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordLineError) -> RecordingLine {
    var builder = RecordValueBuilder()
    if try RecordDecoder.decode(bytes, into: &builder) == .record { return .record(builder.record) }
    return try decodeOther(bytes)
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

  /// A line the record decoder found not to be a record: parsed, then a header, a marker or an
  /// error.
  private static func decodeOther(_ bytes: UnsafeBufferPointer<UInt8>) throws(RecordLineError)
    -> RecordingLine
  {
    let value: PropertyValue
    do { value = try JSONParser.parse(bytes) } catch { throw RecordLineError(syntax: error) }
    guard case .object(let object) = value else {
      throw RecordLineError(reason: "a line must be a JSON object, found \(value.typeName)")
    }
    if object[LineFields.format] != nil { return .header(try header(object)) }
    if object[LineFields.dropped] != nil { return .dropped(try marker(object)) }
    throw RecordLineError(
      reason: "not a recording line: no 'seq' (record), 'format' (header) or 'dropped' field")
  }

  // MARK: Header and marker

  private static func header(_ object: Properties) throws(RecordLineError) -> RecordingHeader {
    var header = RecordingHeader()
    var hasVersion = false
    for (key, value) in object {
      switch key {
      case LineFields.format:
        header.format = try string(value, LineFields.format)
        guard header.format == RecordingHeader.formatName else {
          throw RecordLineError(
            field: LineFields.format,
            reason: "expected \"\(RecordingHeader.formatName)\", found \"\(header.format)\"")
        }
      case LineFields.version:
        guard case .int(let version) = value else {
          throw RecordLineError(
            field: LineFields.version, reason: "expected an integer, found \(RecordWalk.describe(value))")
        }
        header.version = version
        hasVersion = true
      case LineFields.app: header.app = try optionalString(value, LineFields.app)
      case LineFields.device: header.device = try optionalString(value, LineFields.device)
      case LineFields.started:
        if case .null = value { continue }
        header.startedMilliseconds = try timestamp(value, LineFields.started)
      default: header.extra.appendUnchecked(key, value)
      }
    }
    guard hasVersion else { throw RecordLineError(field: LineFields.version, reason: "missing") }
    return header
  }

  private static func marker(_ object: Properties) throws(RecordLineError) -> DropMarker {
    var marker = DropMarker(count: 0, time: Date(recordMilliseconds: 0), origin: "")
    var hasTime = false
    for (key, value) in object {
      switch key {
      case LineFields.dropped:
        guard case .int(let count) = value, count >= 0 else {
          throw RecordLineError(
            field: LineFields.dropped, reason: "expected an integer ≥ 0, found \(RecordWalk.describe(value))")
        }
        marker.count = count
      case "time":
        marker.timeMilliseconds = try timestamp(value, "time")
        hasTime = true
      case LineFields.afterSeq:
        if case .null = value { continue }
        guard case .int(let seq) = value, seq >= 0 else {
          throw RecordLineError(
            field: LineFields.afterSeq, reason: "expected an integer ≥ 0, found \(RecordWalk.describe(value))"
          )
        }
        marker.afterSeq = UInt64(seq)
      case LineFields.by: marker.origin = try optionalString(value, LineFields.by) ?? ""
      default: marker.extra.appendUnchecked(key, value)
      }
    }
    guard hasTime else { throw RecordLineError(field: "time", reason: "missing") }
    return marker
  }

  // MARK: Typed fields

  private static func string(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> String {
    guard case .string(let text) = value else {
      throw RecordLineError(field: path, reason: "expected a string, found \(RecordWalk.describe(value))")
    }
    return text
  }

  private static func optionalString(_ value: PropertyValue, _ path: String) throws(RecordLineError)
    -> String?
  {
    if case .null = value { return nil }
    return try string(value, path)
  }

  private static func timestamp(_ value: PropertyValue, _ path: String) throws(RecordLineError) -> Int64 {
    let text = try string(value, path)
    guard let milliseconds = ISO8601Timestamp.milliseconds(from: text) else {
      throw RecordLineError(field: path, reason: "expected an ISO 8601 timestamp, found \"\(text)\"")
    }
    return milliseconds
  }

}
