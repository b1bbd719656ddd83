import TagscopeRecording

/// What the server hands its consumer, in arrival order per connection.
public enum ListenEvent: Sendable {
  /// Records, each with its `source` set.
  case records([Record])
  /// A new source: a native client sent its header, or an SDK device (or connection, for payloads
  /// that name no device) sent its first accepted call; its header then names the SDK as `app`, the
  /// connection's address as `device`, and in `extra` what the payload says of the device.
  case sourceConnected(source: String, header: RecordingHeader)
  /// A native client's connection closed.
  case sourceDisconnected(source: String)
  /// A native client reported records it lost before sending (its drop marker).
  case dropped(source: String, marker: DropMarker)
  /// A line, request or connection refused; the sentence names the source and, for native lines,
  /// the line number.
  case problem(source: String, message: String)
  /// A device log read from standard input ended (the pipe closed): nothing more comes from it,
  /// while `listen` goes on serving apps and SDKs (headless `--exit-on-eof` stops there).
  case inputEnded(source: String)
}
