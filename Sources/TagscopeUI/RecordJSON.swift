import AnalyticsHub
import struct Foundation.Date

/// Pretty JSON of a record for the detail view. Every string is JSON-escaped, and so are the
/// characters the sanitizer would replace (bidi, zero-width, C1), so the view shows raw values
/// exactly, escaped, and the text is valid JSON.
public enum RecordJSON {
  /// The record as indented JSON.
  public static func pretty(_ record: RecordView) -> String {
    var writer = Writer()
    writer.object(indent: 0) { object in
      object.field("seq") { $0.raw(String(record.seq)) }
      object.field("time") { $0.string(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: record.time))) }
      object.field("kind") { $0.string(record.kind) }
      object.field("name") { $0.string(record.name) }
      if let eventType = record.eventType { object.field("eventType") { $0.string(eventType) } }
      if let source = record.source { object.field("source") { $0.string(source) } }
      object.field("properties") { $0.properties(record.properties, indent: 1) }
      object.field("context") { $0.context(record.context, indent: 1) }
      object.field("outputs") { writer in
        writer.array(record.outputs, indent: 1) { $0.output($1, indent: 2) }
      }
      if !record.issues.isEmpty {
        object.field("issues") { writer in writer.array(record.issues, indent: 1) { $0.string($1) } }
      }
    }
    return writer.out
  }

  /// `text` as a JSON string literal with unsafe characters escaped.
  public static func quoted(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || Sanitizer.isUnsafe(scalar) {
          for unit in String(scalar).utf16 {
            let hex = String(unit, radix: 16)
            out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
          }
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }
}

private struct Writer {
  var out = ""

  mutating func raw(_ text: String) { out += text }
  mutating func string(_ text: String) { out += RecordJSON.quoted(text) }

  static func pad(_ indent: Int) -> String { String(repeating: "  ", count: indent) }

  mutating func object(indent: Int, _ body: (inout ObjectWriter) -> Void) {
    var object = ObjectWriter(writer: self, indent: indent + 1)
    body(&object)
    self = object.writer
    if object.empty {
      out += "{}"
    } else {
      out += "\n" + Self.pad(indent) + "}"
    }
  }

  mutating func array<T>(_ items: [T], indent: Int, _ body: (inout Writer, T) -> Void) {
    if items.isEmpty {
      out += "[]"
      return
    }
    out += "["
    for (offset, item) in items.enumerated() {
      out += (offset == 0 ? "\n" : ",\n") + Self.pad(indent)
      body(&self, item)
    }
    out += "\n" + Self.pad(indent - 1) + "]"
  }

  mutating func value(_ value: PropertyValue, indent: Int) {
    switch value {
    case .string(let text): string(text)
    case .int(let number): raw(String(number))
    case .double(let number): raw(number.isFinite ? String(number) : "null")
    case .bool(let flag): raw(flag ? "true" : "false")
    case .date(let date): string(ISO8601Timestamp.string(from: date))
    case .null: raw("null")
    case .array(let values): array(values, indent: indent) { $0.value($1, indent: indent + 1) }
    case .object(let properties): self.properties(properties, indent: indent)
    }
  }

  mutating func properties(_ properties: Properties, indent: Int) {
    object(indent: indent - 1) { object in
      for (key, value) in properties { object.field(key) { $0.value(value, indent: indent + 1) } }
    }
  }

  mutating func context(_ context: ContextView, indent: Int) {
    object(indent: indent - 1) { object in
      if let screen = context.screen { object.field("screen") { $0.string(screen) } }
      object.field("history") { writer in writer.array(context.history, indent: indent + 1) { $0.string($1) } }
      if let session = context.session {
        object.field("session") { writer in
          writer.object(indent: indent) { inner in
            inner.field("id") { $0.string(session.id) }
            inner.field("state") { $0.string(session.state) }
            if let user = session.user { inner.field("user") { $0.string(user) } }
            inner.field("properties") { $0.properties(session.properties, indent: indent + 2) }
          }
        }
      }
      if !context.timedEvents.isEmpty {
        object.field("timedEvents") { writer in
          writer.array(context.timedEvents, indent: indent + 1) { $0.string($1) }
        }
      }
    }
  }

  mutating func output(_ output: OutputView, indent: Int) {
    object(indent: indent - 1) { object in
      object.field("provider") { $0.string(output.provider) }
      object.field("status") { $0.string(output.status) }
      if let reason = output.reason { object.field("reason") { $0.string(reason) } }
      if !output.calls.isEmpty {
        object.field("calls") { writer in
          writer.array(output.calls, indent: indent + 1) { writer, call in
            writer.object(indent: indent + 1) { inner in
              inner.field("method") { $0.string(call.method) }
              if let name = call.name { inner.field("name") { $0.string(name) } }
              inner.field("parameters") { $0.properties(call.parameters, indent: indent + 3) }
            }
          }
        }
      }
      if !output.violations.isEmpty {
        object.field("violations") { writer in
          writer.array(output.violations, indent: indent + 1) { writer, violation in
            writer.object(indent: indent + 1) { inner in
              inner.field("rule") { $0.string(violation.rule) }
              inner.field("severity") { $0.string(violation.severity) }
              inner.field("message") { $0.string(violation.message) }
            }
          }
        }
      }
    }
  }
}

private struct ObjectWriter {
  var writer: Writer
  let indent: Int
  var empty = true

  init(writer: Writer, indent: Int) {
    self.writer = writer
    self.indent = indent
  }

  mutating func field(_ key: String, _ body: (inout Writer) -> Void) {
    writer.out += (empty ? "{\n" : ",\n") + Writer.pad(indent) + RecordJSON.quoted(key) + ": "
    empty = false
    body(&writer)
  }
}
