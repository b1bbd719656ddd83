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
    var scratch: [UInt8] = []
    scratch.reserveCapacity(Self.lineGuess)
    self.init(record, scratch: &scratch)
  }

  /// The items of `records`, their lines encoded in one scratch buffer.
  public static func items(_ records: [Record]) -> [SinkItem] {
    var scratch: [UInt8] = []
    scratch.reserveCapacity(lineGuess)
    return records.map { SinkItem($0, scratch: &scratch) }
  }

  /// A record item, its line encoded in `scratch` and kept at its own size: an item is held until
  /// it is stored, and a line left in a buffer reserved for a longer one held a 12-byte Firebase
  /// event's 443 bytes in 768 (most of a small-event upload's memory in flight).
  private init(_ record: Record, scratch: inout [UInt8]) {
    scratch.removeAll(keepingCapacity: true)
    RecordLineEncoder.appendLine(record, to: &scratch)
    let line = [UInt8](unsafeUninitializedCapacity: scratch.count) { buffer, count in
      count = buffer.initialize(fromContentsOf: scratch)
    }
    self = .record(record, line: line)
  }

  /// The room a line is first given: most records' lines fit.
  private static let lineGuess = 768

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
