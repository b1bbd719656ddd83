import NIOCore
import NIOHTTP1

/// The one SDK request state machine, for `listen` and the proxy alike: takes one request at a
/// time through admission (``RequestAdmission``), body collection (``BodyCollector``), intake
/// (``RequestIntake``) and the storage wait (``StorageWait``), then hands it to its final
/// `Stage`: `listen`'s reply (``ListenReplyStage``) or the proxy's forward (``ForwardStage``).
///
/// A body over the limit is answered at once and the connection closed once the client stops
/// sending; a request that does not finish in time gets `408` and is closed; while the session is
/// behind a request gets `503` + `Retry-After` and nothing of it is taken; a request whose records
/// are taken but not durable within the request timeout gets `503` + `Retry-After` too.
final class RequestPipeline<Stage: FinalStage>: ChannelInboundHandler, RequestPipelineHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private enum State {
    /// Between requests.
    case idle
    /// Reading the body of a request for `endpoint` (`nil`: none decodes it).
    case collecting(head: HTTPRequestHead, endpoint: (any SDKEndpoint)?, body: ByteBuffer)
    /// A request whose reply does not depend on its body (404, 405, preflight, query API).
    case answering(head: HTTPRequestHead, route: EndpointRouter.Route)
    /// Already answered (refused): discarding the rest of the request, then closing.
    case discarding(discarded: Int)
    /// Being decoded (off the event loop when large), or its answer awaited.
    case decoding
    /// Its records delivered: completed once they are stored (durable).
    case storing(head: HTTPRequestHead, body: ByteBuffer, ledger: RetryLedger, reply: SDKReply)
    /// With the final stage, which answers it (forwarded, its answer relayed).
    case final
    /// Handed on to the handlers after this one, which answer it: what follows of the request,
    /// and the client's end, are passed on.
    case handedOn
  }

  /// The final stage.
  let stage: Stage
  private let server: ServerContext
  private var state = State.idle
  private var deadlines = RequestDeadlines()
  private var peerHost = "unknown"
  private var refusals = RefusalLog()
  /// Whether the connection closes once the request being answered has its reply: the client
  /// ended its side (a half-close), or an error came meanwhile.
  private(set) var closeAfterReply = false

  init(stage: Stage) {
    self.stage = stage
    server = stage.server
  }

  func handlerAdded(context: ChannelHandlerContext) {
    stage.attach(to: self)
    peerHost = context.channel.remoteAddress?.ipAddress ?? "unknown"
    armRequestDeadline(context: context)
  }

  /// A client's half-close: a reply still owed (a request being decoded, stored or forwarded) is
  /// written first, then the connection closes; otherwise (or when the stage gives up the answer
  /// awaited) it closes once the writes under way are passed on.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    if case .handedOn = state {
      context.fireUserInboundEventTriggered(event)
      return
    }
    markCloseAfterReply()
    switch state {
    case .decoding where stage.abandonsAwaitedAnswer():
      state = .idle
      closeSoon(context: context)
    case .decoding, .storing, .final, .handedOn: break
    case .idle, .collecting, .answering, .discarding: closeSoon(context: context)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if case .handedOn = state {
      // A head after a request handed on comes once it is answered (``HTTPServerPipelineHandler``).
      guard case .head = part else {
        context.fireChannelRead(data)
        return
      }
      state = .idle
    }
    switch part {
    case .head(let head): receiveHead(head, context: context)
    case .body(var chunk): receiveBody(&chunk, context: context)
    case .end: receiveEnd(context: context)
    }
  }

  private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    // After a refusal the connection is closing: a request pipelined behind it is not answered
    // (its reply would be counted and then cut off by the close).
    guard case .idle = state else { return }
    deadlines.cancelIdle()
    let route = stage.route(head, pipeline: self, context: context)
    switch route {
    case .handedOn:
      deadlines.cancelRequest()
      state = .handedOn
      context.fireChannelRead(wrapInboundOut(.head(head)))
      return
    case .closed:
      return
    case .collect, .answer, .refuse:
      armRequestDeadline(context: context)
    }
    switch route {
    case .collect(let endpoint):
      // A declared length over the limit, or one that is not a number (past Int.max), is refused at
      // once rather than waited for; an encoding the decompressor does not know, rather than read
      // as identity.
      if let refusal = Self.admissionRefusal(head, endpoint: endpoint, server: server) {
        answerBeforeBody(refusal, head: head, context: context)
        return
      }
      state = .collecting(head: head, endpoint: endpoint, body: BodyCollector.start(head, context: context))
    case .answer(let route, let early):
      // A client waiting for `100 Continue` is answered now; a query API request at its end, as its
      // route says (a client waiting is sent `100 Continue`).
      if BodyCollector.expectsContinue(head), !route.isAPI {
        answerBeforeBody(early, head: head, context: context)
        return
      }
      if route.isAPI { _ = BodyCollector.start(head, context: context) }
      state = .answering(head: head, route: route)
    case .refuse(let reply):
      refuse(reply, head: head, context: context)
    case .handedOn, .closed:
      break
    }
  }

  /// The admission refusal of a request from its head; for one no endpoint decodes, a declared
  /// length past the server's limit only.
  private static func admissionRefusal(
    _ head: HTTPRequestHead, endpoint: (any SDKEndpoint)?, server: ServerContext
  ) -> SDKReply? {
    guard let endpoint else { return RequestAdmission.refusal(head: head, server: server) }
    return RequestAdmission.refusal(
      head: head, endpoint: endpoint, limit: RequestAdmission.limit(endpoint, server: server))
  }

  /// Answers (and counts) a request from its head, before its body. A client waiting for
  /// `100 Continue` holds its body back and takes a final status instead (RFC 9110 §10.1.1), so
  /// the connection closes now (``LingeringClose`` discards what it sends anyway) rather than
  /// waiting for a body that may never come; any other client's body is read and discarded first.
  private func answerBeforeBody(_ reply: SDKReply, head: HTTPRequestHead, context: ChannelHandlerContext) {
    guard BodyCollector.expectsContinue(head) else {
      refuse(reply, head: head, context: context)
      return
    }
    deadlines.cancelRequest()
    count(reply, head: head, note: stage.refusalNote)
    respond(reply, head: head, close: true, context: context)
  }

  private func receiveBody(_ chunk: inout ByteBuffer, context: ChannelHandlerContext) {
    switch state {
    case .collecting(let head, let endpoint, var body):
      state = .idle
      let limit = BodyCollector.limit(endpoint, server: server)
      if !BodyCollector.append(&chunk, to: &body, limit: limit, allocator: context.channel.allocator) {
        refuse(endpoint?.replyTooLarge() ?? RequestAdmission.tooLarge, head: head, context: context)
      } else {
        state = .collecting(head: head, endpoint: endpoint, body: body)
      }
    case .discarding(let discarded):
      let (total, closeNow) = BodyCollector.discard(chunk.readableBytes, after: discarded)
      if closeNow { context.close(promise: nil) }
      state = .discarding(discarded: total)
    case .answering, .idle, .decoding, .storing, .final, .handedOn:
      break
    }
  }

  private func receiveEnd(context: ChannelHandlerContext) {
    deadlines.cancelRequest()
    let current = state
    state = .idle
    switch current {
    case .collecting(let head, let endpoint, let body):
      take(head: head, endpoint: endpoint, body: body, context: context)
    case .answering(let head, let route):
      stage.answer(route, head: head, pipeline: self, context: context)
    case .discarding:
      // Closing: a request pipelined behind the refused one is not taken (its reply would be cut off).
      state = current
      closeSoon(context: context)
    case .decoding, .storing, .final:
      state = current
      closeSoon(context: context)
    case .idle, .handedOn:
      break
    }
  }

  /// Decodes (off the event loop when large) and delivers a collected request, then completes it
  /// once stored; a request no endpoint decodes is completed at once; a session behind answers
  /// busy and takes nothing.
  private func take(
    head: HTTPRequestHead, endpoint: (any SDKEndpoint)?, body: ByteBuffer, context: ChannelHandlerContext
  ) {
    guard let endpoint else {
      complete(head: head, body: body, reply: nil, context: context)
      return
    }
    guard server.ingest.hasRoom else {
      answerBusy(head: head, context: context)
      return
    }
    let (bytes, answer) = stage.intake(head: head, endpoint: endpoint, body: body, peerHost: peerHost)
    // A body the final stage does not read again is let go here, not held to the reply beside the
    // intake's copy (1.4× a large upload's body at its peak: its buffer grows to a power of two).
    let kept = stage.completesWithBody ? body : ByteBuffer()
    state = .decoding
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let ledger = RetryLedger(exchange: stage.wireExchange())
    let taken = RequestIntake.take(
      bodyBytes: bytes, server: server, peerHost: peerHost, eventLoop: context.eventLoop, ledger: ledger,
      answer: answer,
      done: { reply, accepted in
        let (handler, context) = loopBound.value
        guard case .decoding = handler.state else { return }
        handler.state = .idle
        handler.decoded(reply, accepted: accepted, ledger: ledger, head: head, body: kept, context: context)
      })
    guard taken else {
      // Large bodies queue for the one parsing thread within the byte budget: past it, the SDK is
      // told to retry.
      state = .idle
      answerBusy(head: head, context: context)
      return
    }
    stage.intakeTaken()
  }

  /// What follows the intake: the reply now, or the final stage once the records it `accepted`
  /// (delivered, but an SDK's retries of messages already taken, which `ledger` counts:
  /// ``RetryMemory``) are stored (with `--record`, written and fsynced).
  private func decoded(
    _ reply: SDKReply, accepted: Bool, ledger: RetryLedger, head: HTTPRequestHead, body: ByteBuffer,
    context: ChannelHandlerContext
  ) {
    let (outcome, note) = stage.outcome(of: reply, accepted: accepted)
    count(reply, head: head, note: note)
    switch outcome {
    case .reply:
      respond(reply, head: head, close: !head.isKeepAlive, context: context)
    case .complete:
      complete(head: head, body: body, reply: reply, context: context)
    case .store:
      let skipped = ledger.skipped
      if skipped > 0 { report(stage.skippedReport(head, skipped: skipped)) }
      state = .storing(head: head, body: body, ledger: ledger, reply: reply)
      // A disk too slow (or unable) to write within the request timeout: the request then ends
      // with `503` + `Retry-After`, and the client keeps its events.
      armRequestDeadline(context: context)
      StorageWait.wait(for: self, server: server, context: context)
    }
  }

  /// The records of the request under way are stored: its final stage completes it.
  func recordsStored(context: ChannelHandlerContext) {
    guard case .storing(let head, let body, _, let reply) = state else { return }
    deadlines.cancelRequest()
    complete(head: head, body: body, reply: reply, context: context)
  }

  private func complete(
    head: HTTPRequestHead, body: ByteBuffer, reply: SDKReply?, context: ChannelHandlerContext
  ) {
    state = .final
    guard
      let answer = stage.complete(
        head: head, body: body, reply: reply, closeAfter: closeAfterReply, context: context)
    else { return }
    state = .idle
    respond(answer, head: head, close: !head.isKeepAlive, context: context)
  }

  private func answerBusy(head: HTTPRequestHead, context: ChannelHandlerContext) {
    respond(RequestAdmission.busy(server: server), head: head, close: !head.isKeepAlive, context: context)
  }

  /// Refuses a request before its end: answered at once (`Connection: close`), counted and
  /// reported; the rest of it is discarded, then the connection closed.
  private func refuse(_ reply: SDKReply, head: HTTPRequestHead, context: ChannelHandlerContext) {
    count(reply, head: head, note: stage.refusalNote)
    state = .discarding(discarded: 0)
    respond(reply, head: head, close: false, announceClose: true, context: context)
  }

  /// Closes once the writes under way are passed on: the end of a refused request can arrive
  /// while the reply before it is being written (the pipelining handler hands on the next request
  /// from within that write), and closing at once would drop that reply.
  private func closeSoon(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.eventLoop.execute { loopBound.value.close(promise: nil) }
  }

  private func markCloseAfterReply() {
    closeAfterReply = true
    stage.closeAfterAnswer()
  }

  // MARK: For the final stage

  /// Counts a refused request and reports it to the consumer, with `note` after it.
  func count(_ reply: SDKReply, head: HTTPRequestHead, note: String = "") {
    refusals.count(
      reply, head: head, path: stage.countedPath(head), server: server, peerHost: peerHost, note: note)
  }

  /// Reports a problem within the connection's budget.
  func report(_ message: String) {
    refusals.report(message, server: server, peerHost: peerHost)
  }

  /// The answer of the request ending now is awaited (``answered(_:head:context:)``).
  func awaitAnswer() { state = .decoding }

  /// The answer awaited: written, unless the request was given up meanwhile.
  func answered(_ reply: SDKReply, head: HTTPRequestHead, context: ChannelHandlerContext) {
    guard case .decoding = state else { return }
    state = .idle
    respond(reply, head: head, close: !head.isKeepAlive, context: context)
  }

  /// The final stage's answer is about to end: writing its end hands on a request pipelined
  /// behind (``HTTPServerPipelineHandler``), which must find the pipeline idle, or closing.
  func finalAnswerEnding(closeAfter: Bool) {
    state = closeAfter ? .discarding(discarded: 0) : .idle
  }

  /// The final stage's answer was written whole; with `closeAfter`, the connection closes now.
  func finalAnswerEnded(closeAfter: Bool, context: ChannelHandlerContext) {
    if closeAfter {
      context.close(promise: nil)
    } else if case .idle = state {
      deadlines.armIdle(server: server, context: context)
    }
  }

  /// Writes a reply of the pipeline's own (or the stage's) to `request`; the connection closed
  /// after it with `close`, or told it will be with `announceClose`.
  func respond(
    _ reply: SDKReply, head request: HTTPRequestHead, close: Bool, announceClose: Bool = false,
    context: ChannelHandlerContext
  ) {
    var headers = ReplyWriter.headers(of: reply)
    stage.addHeaders(to: &headers, request: request, context: context)
    let close = close || closeAfterReply
    // Closing: a request pipelined behind (handed on as this reply is written) is not taken.
    if close { state = .discarding(discarded: 0) }
    // A connection kept alive but idle past the keep-alive timeout is closed: idle connections
    // cannot hold the server's connection slots.
    let keptAlive = ReplyWriter.answer(
      reply, headers: &headers, request: request, close: close, announceClose: announceClose,
      context: context)
    if keptAlive { deadlines.armIdle(server: server, context: context) }
  }

  // MARK: Errors, deadlines, the end

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // One reply per request: a request already answered (or a connection between requests, for
    // anything but a parse error) is just closed.
    switch state {
    case .handedOn:
      context.fireErrorCaught(error)
      return
    case .decoding, .storing, .final:
      // A reply is owed (the request's records are taken): written first, then the connection
      // closes, so what followed cannot make the client think its request was lost.
      markCloseAfterReply()
      return
    case .discarding:
      // Already answered: a second error of the same body (the decompressor reports each part).
      closeSoon(context: context)
      return
    case .idle where !(error is HTTPParserError):
      closeSoon(context: context)
      return
    case .idle, .collecting, .answering: break
    }
    let head: HTTPRequestHead
    let endpoint: (any SDKEndpoint)?
    switch state {
    case .collecting(let requestHead, let collecting, _): (head, endpoint) = (requestHead, collecting)
    case .answering(let requestHead, _): (head, endpoint) = (requestHead, nil)
    default: (head, endpoint) = (HTTPRequestHead(version: .http1_1, method: .POST, uri: "/"), nil)
    }
    switch RequestFailure.of(error, endpoint: endpoint) {
    case .truncated:
      server.statistics.update { $0.truncated += 1 }
      state = .idle
      closeSoon(context: context)
    case .close:
      closeSoon(context: context)
    case .refuse(let reply):
      deadlines.cancelRequest()
      count(reply, head: head, note: stage.refusalNote)
      respond(reply, head: head, close: true, context: context)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadlines.cancelAll()
    if case .collecting = state { server.statistics.update { $0.truncated += 1 } }
    state = .idle
    stage.end()
    refusals.close(server: server, peerHost: peerHost)
    context.fireChannelInactive()
  }

  private func armRequestDeadline(context: ChannelHandlerContext) {
    deadlines.armRequest(for: self, server: server, context: context)
  }

  func requestTimedOut(context: ChannelHandlerContext) {
    deadlines.requestExpired()
    server.statistics.timeout(.request)
    if case .storing(let head, _, let ledger, _) = state {
      // Taken but not durable in time: the late acknowledgement finds this request answered; the
      // SDK's retry is not recorded again (nor forwarded twice).
      report(stage.storageTimeoutReport(head))
      respond(StorageWait.timedOut(ledger, server: server), head: head, close: true, context: context)
      return
    }
    report("request not complete in time, closed")
    switch state {
    case .collecting(let head, _, _), .answering(let head, _):
      respond(RequestPolicy.requestTimeout, head: head, close: true, context: context)
    default:
      context.close(promise: nil)
    }
  }
}
