import NIOConcurrencyHelpers

/// Which deadline closed a connection.
public enum TimeoutKind: String, Sendable, Hashable, CaseIterable {
  /// A connection that said nothing.
  case silent
  /// A native client that did not send its header line in time.
  case nativeHeader
  /// An HTTP request that did not finish in time (truncated or never-ending).
  case request
  /// A native stream idle past its limit.
  case nativeIdle
  /// An HTTP keep-alive connection idle between requests (normal; counted apart).
  case keepAlive
  /// A proxy client that did not finish its TLS handshake in time.
  case proxyHandshake
  /// An upstream server that did not open or answer in time.
  case upstream
}

/// The server's counters, as a value: connections, accepted records, refusals by reason and
/// timeouts by kind.
public struct ServerStatistics: Sendable, Hashable {
  /// Connections accepted since start.
  public var connections = 0
  /// Connections open now.
  public var openConnections = 0
  /// HTTP requests answered.
  public var httpRequests = 0
  /// Native streams whose header was accepted.
  public var nativeStreams = 0
  /// Records delivered to the consumer.
  public var accepted = 0
  /// Requests, lines or connections refused, by reason.
  public var rejected: [RejectionReason: Int] = [:]
  /// Connections closed by a deadline, by kind.
  public var timeouts: [TimeoutKind: Int] = [:]
  /// Records native clients reported losing themselves (drop markers).
  public var droppedByClients = 0
  /// HTTP requests or native connections cut off before they were complete.
  public var truncated = 0
  /// HTTP requests answered `503` + `Retry-After` because the ingest queue was full.
  public var busyReplies = 0
  /// Times a native stream stopped being read until the ingest queue had room.
  public var pausedReads = 0
  /// Connections closed to make room for a new one (the longest idle, at `maximumConnections`).
  public var evicted = 0
  /// HTTP bodies large enough to be parsed off the event loops.
  public var offloadedBodies = 0
  /// Native records already taken once (a client resending what it had no acknowledgement for).
  public var duplicates = 0
  /// Native records whose `seq` repeats, goes backwards or jumps far ahead within their source,
  /// as `SequenceCheck` finds them checking each source's records in order across its connections
  /// (the count `validate` finds in a recording of this server's records; a restart at 1 is not
  /// one); each is also reported as a problem.
  public var seqAnomalies = 0
  /// SDK messages skipped as an SDK's retry of messages already taken from a request answered
  /// `503` (the disk slower than the request timeout; see `RetryMemory`), or already in the
  /// recording being continued: recorded once.
  public var retriesSkipped = 0
  /// SDK messages answered `503` that their retries cannot be told from (past the memory's bound
  /// of `RetryMemory.limit` messages): recorded again if resent.
  public var retriesUnprotected = 0
  /// SDK devices whose state was forgotten to make room for new ones (past the device limit).
  public var forgottenDevices = 0
  /// Requests the proxy decrypted (intercepted hosts) and decoded or forwarded.
  public var proxiedRequests = 0
  /// `CONNECT` tunnels the proxy relayed untouched (hosts it does not intercept).
  public var tunnels = 0
  /// Upstream connections or answers that failed (answered `502`/`504`).
  public var upstreamFailures = 0
  /// Lines of followed logs (`listen --log`) that look like Firebase Analytics' but were not
  /// understood, by wording (each wording's first is also reported as a problem).
  public var unreadLogLines = FirebaseLogUnreadLines()
  /// SDK payload fields no decoder understood (`sdk.field-not-understood`): count and first place.
  public var fieldsNotUnderstood = FieldsNotUnderstood()

  /// All refusals.
  public var totalRejected: Int { rejected.values.reduce(0, +) }
  /// All timeouts except keep-alive closes.
  public var totalTimeouts: Int { timeouts.filter { $0.key != .keepAlive }.values.reduce(0, +) }

  /// One line: `accepted 12 · rejected 2 (malformedJSON 1, bodyTooLarge 1) · timeouts 0 · connections 3/5`.
  public var summary: String {
    func detail<Key: RawRepresentable>(_ counts: [Key: Int]) -> String where Key.RawValue == String {
      let parts = counts.filter { $0.value > 0 }.sorted { $0.key.rawValue < $1.key.rawValue }
        .map { "\($0.key.rawValue) \($0.value)" }
      return parts.isEmpty ? "" : " (" + parts.joined(separator: ", ") + ")"
    }
    return "accepted \(accepted) · rejected \(totalRejected)\(detail(rejected)) · timeouts \(totalTimeouts)"
      + "\(detail(timeouts.filter { $0.key != .keepAlive })) · truncated \(truncated)"
      + (busyReplies + pausedReads > 0 ? " · held back \(busyReplies) requests, \(pausedReads) reads" : "")
      + (evicted > 0 ? " · \(evicted) idle connections closed for new ones" : "")
      + (duplicates > 0 ? " · \(duplicates) resent records already taken" : "")
      + (retriesSkipped > 0
        ? " · \(retriesSkipped) SDK records resent after a 503 already taken, skipped" : "")
      + (retriesUnprotected > 0
        ? " · \(retriesUnprotected) SDK records answered 503 past the retry memory, recorded again if resent"
        : "")
      + (seqAnomalies > 0 ? " · \(seqAnomalies) records with seq out of order or jumping ahead" : "")
      + (forgottenDevices > 0 ? " · \(forgottenDevices) idle SDK devices forgotten for new ones" : "")
      + (proxiedRequests + tunnels > 0 ? " · proxied \(proxiedRequests) requests, \(tunnels) tunnels" : "")
      + (upstreamFailures > 0 ? " · \(upstreamFailures) upstream failures" : "")
      + (unreadLogLines.summary.map { " · " + $0 } ?? "")
      + (fieldsNotUnderstood.summary.map { " · " + $0 } ?? "")
      + " · connections \(openConnections) open/\(connections)"
  }
}

/// The live, thread-safe counters behind ``ServerStatistics``.
final class StatisticsCounter: Sendable {
  private let box = NIOLockedValueBox(ServerStatistics())

  var snapshot: ServerStatistics { box.withLockedValue { $0 } }

  func update(_ body: (inout ServerStatistics) -> Void) { box.withLockedValue { body(&$0) } }

  func reject(_ reason: RejectionReason) { update { $0.rejected[reason, default: 0] += 1 } }

  func timeout(_ kind: TimeoutKind) { update { $0.timeouts[kind, default: 0] += 1 } }
}
