import NIOConcurrencyHelpers
import NIOCore

/// How `listen` and the proxy turn a complete SDK request into delivered events, one code path for
/// both: a small body is answered on its event loop; a body from ``RequestPolicy/offloadBytes``
/// on (within the server's ``ServerContext/offload`` byte budget), and a reply with more than
/// ``BulkDelivery/offloadEvents`` events, is answered and delivered on the one large-body queue
/// (``RequestPolicy/parser``) in slices, a lazily decoded batch (``EventBatch``) a slice at
/// a time.
enum RequestIntake {
  /// Answers with `answer` (given a body of `bodyBytes`) and delivers the events it accepted from
  /// `peerHost`, then calls `done` on `eventLoop` with the reply (its events taken out) and
  /// whether it accepted any (they are then delivered, not yet stored); `ledger` notes the
  /// messages delivered and skips the SDK's retries of messages already taken (``RetryMemory``).
  /// Returns `false`, calling nothing, when the body is large and the byte budget is full: the
  /// caller answers busy.
  static func take(
    bodyBytes: Int, server: ServerContext, peerHost: String, eventLoop: any EventLoop,
    ledger: RetryLedger? = nil, answer: @escaping @Sendable () -> SDKReply,
    done: @escaping (SDKReply, Bool) -> Void
  ) -> Bool {
    guard bodyBytes >= RequestPolicy.offloadBytes else {
      let reply = answer()
      guard reply.eventCount > BulkDelivery.offloadEvents else {
        server.deliver(reply.events, address: peerHost, ledger: ledger)
        if let batch = reply.batch {
          server.deliver(batch.events(0..<batch.count), address: peerHost, ledger: ledger)
        }
        reportUnread(reply, server: server, peerHost: peerHost)
        done(emptied(reply), reply.eventCount > 0)
        return true
      }
      // The reply is handed over, not captured: a closure holding it would keep every event
      // alive until the last slice is delivered, and ``BulkDelivery`` lets each go once delivered.
      let handoff = NIOLockedValueBox(reply)
      offload(
        bytes: 0, server: server, peerHost: peerHost, eventLoop: eventLoop, ledger: ledger,
        answer: {
          handoff.withLockedValue { kept in
            defer { kept = emptied(kept) }
            return kept
          }
        },
        done: done)
      return true
    }
    guard server.offload.reserve(bodyBytes) else { return false }
    server.statistics.update { $0.offloadedBodies += 1 }
    offload(
      bytes: bodyBytes, server: server, peerHost: peerHost, eventLoop: eventLoop, ledger: ledger,
      answer: answer, done: done)
    return true
  }

  /// Answers on the large-body queue (`bytes` of the budget taken for it), delivers the events
  /// there in slices (``BulkDelivery``), then calls `done` on the event loop: the loop that read
  /// the request is free for other connections meanwhile.
  private static func offload(
    bytes: Int, server: ServerContext, peerHost: String, eventLoop: any EventLoop, ledger: RetryLedger?,
    answer: @escaping @Sendable () -> SDKReply, done: @escaping (SDKReply, Bool) -> Void
  ) {
    let done = NIOLoopBound(done, eventLoop: eventLoop)
    RequestPolicy.parser.async {
      var reply = answer()
      let accepted = reply.eventCount > 0
      // Its events handed over, the reply's copy let go: each slice is released once delivered.
      let events = reply.events
      reply.events = []
      if let batch = reply.batch {
        BulkDelivery.deliver(batch, address: peerHost, server: server, ledger: ledger)
      } else {
        BulkDelivery.deliver(consume events, address: peerHost, server: server, ledger: ledger)
      }
      reportUnread(reply, server: server, peerHost: peerHost)
      server.offload.release(bytes)
      let answered = emptied(reply)
      eventLoop.execute { done.value(answered, accepted) }
    }
  }

  /// The endpoint's reply to a complete request, with the event size limit and, given one, the
  /// `--token` check applied (the proxy checks no token: the vendor does).
  static func answer(_ request: ReceivedRequest, endpoint: any SDKEndpoint, tokenCheck: TokenCheck?)
    -> SDKReply
  {
    let reply = endpoint.handleLazily(request)
    if EventSizeLimit.isExceeded(by: reply) {
      var refused = endpoint.replyTooLarge()
      refused.rejection = .eventTooLarge
      return refused
    }
    if let tokenCheck, reply.eventCount > 0,
      !tokenCheck.authorizes(headers: request.headers, query: request.query),
      !(reply.batch.map { tokenCheck.authorizes(credentials: $0.credentials) }
        ?? tokenCheck.authorizes(events: reply.events))
    {
      return SDKReply(
        status: .unauthorized, body: #"{"error":"missing or wrong token"}"#, rejection: .badToken)
    }
    return reply
  }

  /// Reports the accepted events of `reply` that could not be read again (``UnreadEvents``), once
  /// all of them were delivered.
  private static func reportUnread(_ reply: SDKReply, server: ServerContext, peerHost: String) {
    for problem in reply.unreadProblems {
      server.deliver(.problem(source: peerHost, message: problem))
    }
  }

  /// `reply` without its events (delivered already).
  private static func emptied(_ reply: SDKReply) -> SDKReply {
    var answer = reply
    answer.events = []
    answer.batch = nil
    return answer
  }
}
