import AnalyticsHub
import TagscopeRecording

/// Pretty JSON of a record for the detail view. Every string is JSON-escaped, and so are the
/// characters the sanitizer would replace (bidi, zero-width, C1), so the view shows raw values
/// exactly, escaped, and the text is valid JSON.
public enum RecordJSON {
  /// The record as JSON indented by two spaces.
  public static func pretty(_ record: Record) -> String {
    var out = ""
    write(node(record), indent: 0, to: &out)
    return out
  }

  /// `text` as a JSON string literal with unsafe characters escaped.
  public static func quoted(_ text: String) -> String { JSONText.quoted(text, escaping: Sanitizer.isUnsafe) }

  private indirect enum Node {
    case literal(String)
    case array([Node])
    case object([(String, Node)])
  }

  private static func string(_ text: String) -> Node { .literal(quoted(text)) }

  private static func node(_ value: PropertyValue) -> Node {
    switch value {
    case .string(let text): return string(text)
    case .int(let number): return .literal(String(number))
    case .double(let number): return .literal(number.isFinite ? String(number) : "null")
    case .bool(let flag): return .literal(flag ? "true" : "false")
    case .date(let date): return string(ISO8601Timestamp.string(from: date))
    case .null: return .literal("null")
    case .array(let values): return .array(values.map(node))
    case .object(let properties): return node(properties)
    }
  }

  private static func node(_ properties: Properties) -> Node {
    .object(properties.map { ($0.key, node($0.value)) })
  }

  private static func node(_ record: Record) -> Node {
    var fields: [(String, Node)] = [
      ("seq", .literal(String(record.seq))),
      ("time", string(ISO8601Timestamp.string(milliseconds: record.timeMilliseconds))),
      ("kind", string(record.kind.rawValue)), ("name", string(record.name)),
    ]
    if let eventType = record.eventType { fields.append(("eventType", string(eventType.rawValue))) }
    if let source = record.source { fields.append(("source", string(source))) }
    fields.append(("properties", node(record.properties)))
    var context: [(String, Node)] = []
    if let screen = record.context.screen { context.append(("screen", string(screen))) }
    context.append(("history", .array(record.context.history.map(string))))
    if let session = record.context.session {
      var sessionFields: [(String, Node)] = [("id", string(session.id)), ("state", string(session.state))]
      if let user = session.user { sessionFields.append(("user", string(user))) }
      sessionFields.append(("properties", node(session.properties)))
      context.append(("session", .object(sessionFields)))
    }
    if !record.context.timedEvents.isEmpty {
      context.append(("timedEvents", .array(record.context.timedEvents.map(string))))
    }
    fields.append(("context", .object(context)))
    fields.append(("outputs", .array(record.outputs.map(node))))
    if !record.issues.isEmpty { fields.append(("issues", .array(record.issues.map { string($0.message) }))) }
    if let raw = record.raw { fields.append(("raw", string(raw))) }
    for (key, value) in record.extra where !fields.contains(where: { $0.0 == key }) {
      fields.append((key, node(value)))
    }
    return .object(fields)
  }

  private static func node(_ output: ProviderOutput) -> Node {
    var fields: [(String, Node)] = [
      ("provider", string(output.provider)), ("status", string(output.status.rawValue)),
    ]
    if let reason = output.reason { fields.append(("reason", string(reason))) }
    if !output.calls.isEmpty {
      fields.append(
        (
          "calls",
          .array(
            output.calls.map { call in
              var callFields: [(String, Node)] = [("method", string(call.method))]
              if let name = call.name { callFields.append(("name", string(name))) }
              callFields.append(("parameters", node(call.parameters)))
              return .object(callFields)
            })
        ))
    }
    if !output.violations.isEmpty {
      fields.append(
        (
          "violations",
          .array(
            output.violations.map { violation in
              var violationFields: [(String, Node)] = [
                ("rule", string(violation.rule)), ("severity", string(violation.consequence)),
                ("message", string(violation.message)),
              ]
              if let index = violation.callIndex {
                violationFields.append(("callIndex", .literal(String(index))))
              }
              return .object(violationFields)
            })
        ))
    }
    return .object(fields)
  }

  private static func write(_ node: Node, indent: Int, to out: inout String) {
    let inner = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch node {
    case .literal(let text): out += text
    case .array(let items):
      guard !items.isEmpty else {
        out += "[]"
        return
      }
      out += "[\n"
      for (offset, item) in items.enumerated() {
        out += inner
        write(item, indent: indent + 1, to: &out)
        out += offset + 1 < items.count ? ",\n" : "\n"
      }
      out += closing + "]"
    case .object(let fields):
      guard !fields.isEmpty else {
        out += "{}"
        return
      }
      out += "{\n"
      for (offset, (key, value)) in fields.enumerated() {
        out += inner + quoted(key) + ": "
        write(value, indent: indent + 1, to: &out)
        out += offset + 1 < fields.count ? ",\n" : "\n"
      }
      out += closing + "}"
    }
  }
}
