import Foundation

/// Where a ``RemoteSink`` stands with `tagscope listen`.
public enum RemoteConnectionState: Sendable, Hashable {
  /// Not connected yet, no attempt failed so far.
  case connecting
  /// Connected: records go out as they come.
  case connected
  /// Out of reach since `since` (why, in words): records are kept (up to the sink's capacity) and
  /// the sink retries with backoff.
  case waiting(since: Date, reason: String)
}
