import Dispatch

/// The policy of the SDK request pipeline that `listen` and the proxy share, in one place: what a
/// refused body may still send, what a busy or slow request is told, where large bodies are parsed.
enum RequestPolicy {
  /// The most discarded after refusing a body before the connection is closed.
  static let maximumDiscard = 64 * 1024 * 1024

  /// `Retry-After` of a `503` while the session is behind (or a store slower than the request
  /// timeout).
  static let busyRetrySeconds = 1

  /// Bodies from this size on are parsed off the event loops, so the other connections on the
  /// same loop are not held while a large (or hostile) payload is parsed.
  static let offloadBytes = 64 * 1024

  /// Where large bodies are parsed: one thread for all connections, so large payloads together
  /// take at most one core and small requests keep the event loops (internal for tests, which
  /// hold it to keep a body waiting there).
  static let parser = DispatchQueue(label: "tagscope.http.large-bodies", qos: .utility)

  /// `503` + `Retry-After`: the session is behind, or did not store in time; the SDK retries.
  static var busy: SDKReply { .busy(retryAfter: busyRetrySeconds) }

  /// `408` for a request not complete within the request timeout.
  static let requestTimeout = SDKReply(
    status: .requestTimeout, contentType: "text/plain", body: "Request timeout")
}
