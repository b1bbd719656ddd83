/// One item an ``Inspector`` hands to its sinks: a record or a drop marker, with its encoded line
/// (JSON and the trailing newline), built once and shared by every sink.
public enum SinkItem: Sendable {
  case record(Record, line: [UInt8])
  case dropped(DropMarker, line: [UInt8])

  /// The encoded line, newline included.
  public var line: [UInt8] {
    switch self {
    case .record(_, let line), .dropped(_, let line): return line
    }
  }

  /// A record item, encoding its line.
  public init(_ record: Record) {
    var line: [UInt8] = []
    line.reserveCapacity(768)
    RecordLineEncoder.appendLine(record, to: &line)
    self = .record(record, line: line)
  }

  /// A drop marker item, encoding its line.
  public init(_ marker: DropMarker) {
    var line: [UInt8] = []
    RecordLineEncoder.appendLine(marker, to: &line)
    self = .dropped(marker, line: line)
  }
}

/// Where an ``Inspector`` delivers records: the ``Recorder`` (a file), the ``RemoteSink``
/// (`tagscope listen`), a live ``Timeline``.
///
/// `receive` is called on the inspector's background thread, never on the app's, with items in
/// sequence order; it may take its time (the inspector's bounded backlog absorbs bursts).
public protocol RecordSink: AnyObject, Sendable {
  /// Items in order.
  func receive(_ items: [SinkItem])
  /// Makes everything received so far durable or sent (best effort for remote sinks).
  func flush()
  /// Flushes and releases the sink's resources.
  func close()
}
