/// One decoded line of a recording (or of a `tagscope listen` stream).
public enum RecordingLine: Sendable, Hashable {
  /// The header (first line of a recording; also the first line of each streamed connection).
  case header(RecordingHeader)
  /// A record.
  case record(Record)
  /// Records lost by a writer that fell behind.
  case dropped(DropMarker)
}
