import AnalyticsHub

/// Writes records, headers and drop markers as single JSON lines in the recording format, and
/// records as indented JSON with the same fields for display (``pretty(_:escaping:)``).
///
/// Fields come in a fixed order (`seq`, `time`, `kind`, `name`, `eventType`, `properties`,
/// `context`, `outputs`, `issues`, `source`, `raw`, then unknown fields kept in `extra`); optional
/// fields are left out when `nil` or empty, except `properties`, `context` and `outputs`, always
/// written. A field of `extra` named like a known field is not written (the known field wins).
public enum RecordLineEncoder {
  /// The record as one line of JSON, without the trailing newline.
  public static func line(_ record: Record) -> String { text(1024) { write(record, to: &$0) } }

  /// The record as indented JSON: the fields, names and order of its line, one key or array
  /// element a line, two spaces a level. Strings (keys included) also write the scalars
  /// `escaping` selects as `\u` escapes, so a terminal can show them without acting on them.
  public static func pretty(_ record: Record, escaping: ((Unicode.Scalar) -> Bool)? = nil) -> String {
    JSONWriter.string(capacity: 4096, pretty: true, escaping: escaping) { write(record, to: &$0) }
  }

  /// Appends the record's JSON and a newline to `bytes`.
  public static func appendLine(_ record: Record, to bytes: inout [UInt8]) {
    append(1024, to: &bytes) { write(record, to: &$0) }
  }

  /// The header as one line of JSON, without the trailing newline.
  public static func line(_ header: RecordingHeader) -> String { text(128) { write(header, to: &$0) } }

  /// Appends the header's JSON and a newline to `bytes`.
  public static func appendLine(_ header: RecordingHeader, to bytes: inout [UInt8]) {
    append(128, to: &bytes) { write(header, to: &$0) }
  }

  /// The drop marker as one line of JSON, without the trailing newline.
  public static func line(_ marker: DropMarker) -> String { text(96) { write(marker, to: &$0) } }

  /// Appends the marker's JSON and a newline to `bytes`.
  public static func appendLine(_ marker: DropMarker, to bytes: inout [UInt8]) {
    append(96, to: &bytes) { write(marker, to: &$0) }
  }

  private static func text(_ capacity: Int, _ body: (inout JSONWriter) -> Void) -> String {
    JSONWriter.string(capacity: capacity, body)
  }

  private static func append(_ capacity: Int, to bytes: inout [UInt8], _ body: (inout JSONWriter) -> Void) {
    JSONWriter.write(into: &bytes, capacity: capacity) { writer in
      body(&writer)
      writer.byte(UInt8(ascii: "\n"))
    }
  }

  /// Any recording line as JSON, without the trailing newline.
  public static func line(_ line: RecordingLine) -> String {
    switch line {
    case .header(let header): return self.line(header)
    case .record(let record): return self.line(record)
    case .dropped(let marker): return self.line(marker)
    }
  }

  package static let recordFields = RecordObject.record.names
  package static let recordFieldsButEventType = recordFields.subtracting([RecordField.eventType.text])
  package static let contextFields = RecordObject.context.names
  package static let sessionFields = RecordObject.session.names
  package static let outputFields = RecordObject.output.names
  package static let headerFields = Set(LineFields.header)
  package static let markerFields = Set(LineFields.marker)

  package static func write(_ record: Record, to writer: inout JSONWriter) {
    writer.openObject()
    writer.key(.seq, first: true)
    writer.unsigned(record.seq)
    writer.key(.time)
    writer.timestamp(record.timeMilliseconds)
    writer.key(.kind)
    writer.string(record.kind.rawValue)
    writer.key(.name)
    writer.string(record.name)
    if let eventType = record.eventType {
      writer.key(.eventType)
      writer.string(eventType.rawValue)
    }
    writer.key(.properties)
    writer.object(record.properties)
    writer.key(.context)
    write(record.context, to: &writer)
    writer.key(.outputs)
    writer.openArray()
    for (index, output) in record.outputs.enumerated() {
      writer.element(first: index == 0)
      write(output, to: &writer)
    }
    writer.closeArray()
    if !record.issues.isEmpty {
      writer.key(.issues)
      writer.openArray()
      for (index, issue) in record.issues.enumerated() {
        writer.element(first: index == 0)
        writer.openObject()
        writer.key(.code, first: true)
        writer.string(issue.code)
        writer.key(.issueMessage)
        writer.string(issue.message)
        writer.closeObject()
      }
      writer.closeArray()
    }
    if let source = record.source {
      writer.key(.source)
      writer.string(source)
    }
    if let raw = record.raw {
      writer.key(.raw)
      writer.string(raw)
    }
    // An unknown `eventType` word read from a recording lives in `extra` and is written back.
    writeExtra(
      record.extra, known: record.eventType == nil ? recordFieldsButEventType : recordFields, to: &writer)
    writer.closeObject()
  }

  private static func write(_ context: RecordContext, to writer: inout JSONWriter) {
    writer.openObject()
    var first = true
    if let screen = context.screen {
      writer.key(.screen, first: true)
      writer.string(screen)
      first = false
    }
    writer.key(.history, first: first)
    writer.stringArray(context.history)
    if let session = context.session {
      writer.key(.session)
      writer.openObject()
      writer.key(.sessionID, first: true)
      writer.string(session.id)
      writer.key(.sessionState)
      writer.string(session.state)
      if let user = session.user {
        writer.key(.sessionUser)
        writer.string(user)
      }
      writer.key(.sessionProperties)
      writer.object(session.properties)
      writeExtra(session.extra, known: sessionFields, to: &writer)
      writer.closeObject()
    }
    if !context.timedEvents.isEmpty {
      writer.key(.timedEvents)
      writer.stringArray(context.timedEvents)
    }
    writeExtra(context.extra, known: contextFields, to: &writer)
    writer.closeObject()
  }

  private static func write(_ output: ProviderOutput, to writer: inout JSONWriter) {
    writer.openObject()
    writer.key(.provider, first: true)
    writer.string(output.provider)
    writer.key(.status)
    writer.string(output.status.rawValue)
    if let reason = output.reason {
      writer.key(.reason)
      writer.string(reason)
    }
    if !output.calls.isEmpty {
      writer.key(.calls)
      writer.openArray()
      for (index, call) in output.calls.enumerated() {
        writer.element(first: index == 0)
        writer.openObject()
        writer.key(.method, first: true)
        writer.string(call.method)
        if let name = call.name {
          writer.key(.callName)
          writer.string(name)
        }
        writer.key(.parameters)
        writer.object(call.parameters)
        writer.closeObject()
      }
      writer.closeArray()
    }
    if !output.violations.isEmpty {
      writer.key(.violations)
      writer.openArray()
      for (index, violation) in output.violations.enumerated() {
        writer.element(first: index == 0)
        writer.openObject()
        writer.key(.rule, first: true)
        writer.string(violation.rule)
        writer.key(.message)
        writer.string(violation.message)
        writer.key(.consequence)
        writer.string(violation.consequence)
        if let callIndex = violation.callIndex {
          writer.key(.callIndex)
          writer.int(Int64(callIndex))
        }
        if let errorCode = violation.errorCode {
          writer.key(.errorCode)
          writer.int(Int64(errorCode))
        }
        writer.closeObject()
      }
      writer.closeArray()
    }
    writeExtra(output.extra, known: outputFields, to: &writer)
    writer.closeObject()
  }

  package static func write(_ header: RecordingHeader, to writer: inout JSONWriter) {
    writer.openObject()
    writer.key(LineFields.format, first: true)
    writer.string(header.format)
    writer.key(LineFields.version, first: false)
    writer.int(Int64(header.version))
    if let app = header.app {
      writer.key(LineFields.app, first: false)
      writer.string(app)
    }
    if let device = header.device {
      writer.key(LineFields.device, first: false)
      writer.string(device)
    }
    if let started = header.startedMilliseconds {
      writer.key(LineFields.started, first: false)
      writer.timestamp(started)
    }
    writeExtra(header.extra, known: headerFields, to: &writer)
    writer.closeObject()
  }

  package static func write(_ marker: DropMarker, to writer: inout JSONWriter) {
    writer.openObject()
    writer.key(LineFields.dropped, first: true)
    writer.int(Int64(marker.count))
    writer.key(.time)
    writer.timestamp(marker.timeMilliseconds)
    if let afterSeq = marker.afterSeq {
      writer.key(LineFields.afterSeq, first: false)
      writer.unsigned(afterSeq)
    }
    writer.key(LineFields.by, first: false)
    writer.string(marker.origin)
    writeExtra(marker.extra, known: markerFields, to: &writer)
    writer.closeObject()
  }

  private static func writeExtra(_ extra: Properties, known: Set<String>, to writer: inout JSONWriter) {
    for (key, value) in extra where !known.contains(key) {
      writer.key(key, first: false)
      writer.value(value)
    }
  }
}
