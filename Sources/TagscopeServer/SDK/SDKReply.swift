import NIOHTTP1

/// What an SDK endpoint answers to one request, and what it accepted.
struct SDKReply: Sendable {
  /// The HTTP status the real service would return.
  var status: HTTPResponseStatus
  /// `Content-Type` of ``body``.
  var contentType: String = "application/json"
  /// The reply body, shaped as the real service shapes it.
  var body: String
  /// The events accepted (empty when the request was rejected).
  var events: [IngestedEvent] = []
  /// Events accepted but left in the body, decoded a slice at a time when delivered (a large
  /// batch: see ``SDKEndpoint/handleLazily(_:)``).
  var batch: EventBatch?
  /// The accepted events of ``events`` the endpoint could not read again to build them (never
  /// expected: ``UnreadEvents``), reported by whoever delivers the reply.
  var unread: UnreadEvents?
  /// The problems to report for accepted events not read again, of ``events`` and of ``batch``,
  /// once every slice was built (``UnreadEvents/problem``).
  var unreadProblems: [String] { [unread?.problem, batch?.unread.problem].compactMap { $0 } }
  /// Why the request was refused, for the counters; `nil` when it was accepted.
  var rejection: RejectionReason?
  /// How many events were accepted, decoded or not.
  var eventCount: Int { events.count + (batch?.count ?? 0) }
  /// Seconds the client should wait before retrying (`Retry-After`), for `503`.
  var retryAfter: Int?
  /// The methods the path takes (`Allow`), for a query API `405`.
  var allow: String?

  /// `503` with `Retry-After`: the server's queue is full; nothing of the request was taken.
  static func busy(retryAfter: Int) -> SDKReply {
    SDKReply(
      status: .serviceUnavailable, contentType: "text/plain", body: "Busy, retry later",
      retryAfter: retryAfter)
  }
}

extension SDKReply {
  /// A query API reply.
  init(api response: APIResponse) {
    self.init(
      status: HTTPResponseStatus(statusCode: response.status), body: response.body,
      rejection: response.status == 401 ? .badToken : nil, allow: response.allow)
  }
}

/// Why the server refused a request, a connection or a line; counted per reason.
public enum RejectionReason: String, Sendable, Hashable, CaseIterable {
  /// The body is not valid JSON (or base64 of JSON where that is allowed).
  case malformedJSON
  /// The `Content-Type` is not one the service accepts.
  case wrongContentType
  /// The body, or one event in it, is over the service's size limit.
  case bodyTooLarge
  /// More events in one request than the service accepts.
  case tooManyEvents
  /// One event of the request past ``EventSizeLimit`` (its recorded line would not read back).
  case eventTooLarge
  /// Valid JSON missing a field the service requires (event name, ids, API key…).
  case invalidPayload
  /// A compressed body that does not decompress.
  case badEncoding
  /// No endpoint at this path, or not with this method.
  case unknownEndpoint
  /// An HTTP request the parser refused (bad request line, headers too large…).
  case badHTTP
  /// The first bytes are neither HTTP nor a native stream.
  case unknownProtocol
  /// A native stream whose first line is not a recording header.
  case badHeader
  /// A native stream or an HTTP request without the token the server requires, or with a wrong one.
  case badToken
  /// A native line that is not a record.
  case badLine
  /// A native line longer than the limit.
  case lineTooLong
  /// More connections open than the limit.
  case tooManyConnections
  /// A debug log entry (`listen --log`) that could not be read; it is skipped.
  case badLogEntry
}
