import Foundation

/// How one source (a device or an SDK's connection) stands with `tagscope listen`: what it
/// announced, whether it is connected, and the gaps in its stream (a `RemoteSink` reconnecting
/// after a backoff).
public struct SourceConnection: Sendable, Hashable {
  /// The source's name, as its records carry it.
  public var name: String
  /// What it announced (its header's `app`; an SDK's name for HTTP sources).
  public var app: String?
  /// Its device (header `device`; the peer address for HTTP sources).
  public var device: String?
  /// Whether its stream is open now (HTTP sources stay connected once seen).
  public var connected: Bool
  /// Since when it is connected, or disconnected.
  public var since: Date
  /// How often it came back after a disconnection.
  public var reconnections: Int
  /// The latest gap in its stream: from its disconnection to its return.
  public var lastGap: ClosedRange<Date>?

  /// A source's connection.
  public init(
    name: String, app: String? = nil, device: String? = nil, connected: Bool, since: Date,
    reconnections: Int = 0, lastGap: ClosedRange<Date>? = nil
  ) {
    self.name = name
    self.app = app
    self.device = device
    self.connected = connected
    self.since = since
    self.reconnections = reconnections
    self.lastGap = lastGap
  }
}
