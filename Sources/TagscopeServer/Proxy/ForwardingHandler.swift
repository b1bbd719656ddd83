import NIOCore
import NIOHTTP1
import TagscopeBasics

/// The client side of an intercepted connection (decrypted after `CONNECT`, or plain HTTP in
/// absolute form): takes one request at a time, decodes it with `listen`'s endpoint decoders when
/// the host is an SDK's (records for the session), and forwards it unchanged to the vendor over
/// one upstream connection kept for the client's once its records are stored (with `--record`,
/// written and fsynced: the vendor never gets what the recording lacks), then relays the vendor's
/// answer.
///
/// A request to an SDK endpoint is held to `listen`'s rules, through the same code
/// (``RequestAdmission``, ``ChunkSizeGuard``, ``BodyDecompression``, ``RequestIntake``): its
/// endpoint's body limit (a declared length or chunk size past it refused at once), gzip, deflate
/// or identity only, lazy decoding of large batches on the large-body queue. What `listen` refuses
/// as a limit (size, events, encoding: ``RejectionReason/isLimit``) the proxy answers itself with
/// the same status and vendor error shape, recorded as a problem, and forwards nothing; a body
/// whose content the decoder refuses is forwarded as it was (the vendor's answer is the one the SDK
/// acts on), recorded as a problem. A store slower than the request timeout gets `503` +
/// `Retry-After`, as from `listen`, and the request is not forwarded: the SDK retries it, and the
/// vendor gets it once (the records still reach the recording when the disk takes them).
final class ForwardingHandler: ChannelInboundHandler, ForwardStageOwner, RequestPipelineHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart
  typealias InboundOut = HTTPServerRequestPart

  private enum State {
    /// Between requests.
    case idle
    /// Reading a request's body; with the SDK endpoint that decodes it, if any.
    case collecting(head: HTTPRequestHead, endpoint: (any SDKEndpoint)?, body: ByteBuffer)
    /// Answered (refused) before its end: discarding the rest of the request, then closing.
    case discarding(discarded: Int)
    /// Being decoded (off the event loop when large).
    case decoding
    /// Its records delivered: forwarded once they are stored.
    case storing(head: HTTPRequestHead, body: ByteBuffer, ledger: RetryLedger)
    /// Forwarded: the vendor's answer is relayed (``ForwardStage``).
    case forwarded
    /// Handed to the ``LocalLane`` after this handler (`--no-forward` on plain HTTP), which
    /// answers it: what follows of the request, and the client's end, are passed on.
    case local
  }

  private let proxy: ProxyContext
  private var host: String
  private var port: Int
  private let secure: Bool
  /// Whether requests are decoded into records (an SDK host) or only forwarded (plain HTTP to any
  /// other host).
  private var decodes: Bool
  private var peerHost = "unknown"
  private var state = State.idle
  private var refusals = RefusalLog()
  /// The final stage: forwards a request and relays its answer.
  private let forwarder: ForwardStage
  private var deadlines = RequestDeadlines()
  /// The ``LocalLane`` once a request was handed to it.
  private var localLane: LocalLane.Gate?
  /// The client ended its side (a half-close) while a request was under way: the connection
  /// closes once that request is answered.
  private var closeAfterReply = false

  /// Opens the upstream connection of a request forwarded to `host`:`port`, its answer read by
  /// `relay` (``UpstreamConnector/http(host:port:secure:proxy:eventLoop:relay:)``; another for
  /// tests of the forward stage).
  typealias Connect = (
    _ host: String, _ port: Int, _ secure: Bool, _ eventLoop: any EventLoop, _ relay: UpstreamRelay
  ) -> EventLoopFuture<any Channel>

  init(
    proxy: ProxyContext, host: String, port: Int, secure: Bool, decodes: Bool, connect: Connect? = nil
  ) {
    forwarder = ForwardStage(
      proxy: proxy, host: host, port: port, secure: secure,
      connect: connect ?? { host, port, secure, eventLoop, relay in
        UpstreamConnector.http(
          host: host, port: port, secure: secure, proxy: proxy, eventLoop: eventLoop, relay: relay)
      })
    self.proxy = proxy
    self.host = host
    self.port = port
    self.secure = secure
    self.decodes = decodes
  }

  func handlerAdded(context: ChannelHandlerContext) {
    forwarder.owner = self
    peerHost = context.channel.remoteAddress?.ipAddress ?? "unknown"
  }

  /// A client's half-close: the request under way (decoded, stored, forwarded) is answered, then
  /// the connection closes; otherwise it closes now.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    if case .local = state {
      context.fireUserInboundEventTriggered(event)
      return
    }
    closeAfterReply = true
    forwarder.closeAfterAnswer()
    switch state {
    case .decoding, .storing, .forwarded, .local: break
    case .idle, .collecting, .discarding: context.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let part = unwrapInboundIn(data)
    if case .local = state {
      // A head after a local request comes once it is answered (``HTTPServerPipelineHandler``).
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
    guard case .idle = state else { return }
    deadlines.cancelIdle()
    if let problem = retarget(RequestTarget(head.uri)) {
      armRequestDeadline(context: context)
      refuse(
        SDKReply(status: .badRequest, contentType: "text/plain; charset=utf-8", body: problem), head: head,
        context: context)
      return
    }
    if decodes && !proxy.configuration.forward && !secure {
      handOnLocally(head, context: context)
      return
    }
    localLane?.inCharge = false
    armRequestDeadline(context: context)
    let endpoint = decodes ? Self.endpoint(for: head, host: host) : nil
    if let refusal = admissionRefusal(head, endpoint: endpoint) {
      guard BodyCollector.expectsContinue(head) else {
        refuse(refusal, head: head, context: context)
        return
      }
      // A client waiting for `100 Continue` holds its body back and takes this instead (RFC 9110
      // §10.1.1): closed now, as `listen` does, not held for a body that may never come.
      deadlines.cancelRequest()
      count(refusal, head: head, note: ", answered by tagscope, not forwarded")
      respond(refusal, head: head, close: true, context: context)
      return
    }
    // The whole body is read before anything is forwarded (the `Expect` header is not), so the
    // proxy answers `100 Continue` itself.
    state = .collecting(head: head, endpoint: endpoint, body: BodyCollector.start(head, context: context))
  }

  private func receiveBody(_ chunk: inout ByteBuffer, context: ChannelHandlerContext) {
    switch state {
    case .collecting(let head, let endpoint, var body):
      state = .idle
      if !BodyCollector.append(&chunk, to: &body, limit: limit(endpoint)) {
        refuse(endpoint?.replyTooLarge() ?? RequestAdmission.tooLarge, head: head, context: context)
      } else {
        state = .collecting(head: head, endpoint: endpoint, body: body)
      }
    case .discarding(let discarded):
      let (total, closeNow) = BodyCollector.discard(chunk.readableBytes, after: discarded)
      if closeNow { context.close(promise: nil) }
      state = .discarding(discarded: total)
    default:
      break
    }
  }

  private func receiveEnd(context: ChannelHandlerContext) {
    switch state {
    case .collecting(let head, let endpoint, let body):
      deadlines.cancelRequest()
      state = .idle
      take(head: head, endpoint: endpoint, body: body, context: context)
    case .discarding:
      context.close(promise: nil)
    default:
      break
    }
  }

  /// The SDK endpoint that decodes `head` on `host`, if any (none for settings, remote
  /// configuration, anything else of the vendor's).
  private static func endpoint(for head: HTTPRequestHead, host: String) -> (any SDKEndpoint)? {
    let target = RequestTarget(head.uri)
    guard
      case .endpoint(let endpoint) = EndpointRouter.route(
        method: head.method, path: target.path, query: target.query, host: host)
    else { return nil }
    return endpoint
  }

  /// The body limit of a request: its endpoint's (as `listen`'s), else the server's.
  private func limit(_ endpoint: (any SDKEndpoint)?) -> Int {
    BodyCollector.limit(endpoint, server: proxy.server)
  }

  /// `listen`'s refusal of a request from its head; for a request not decoded, a declared length
  /// past the server's limit only.
  private func admissionRefusal(_ head: HTTPRequestHead, endpoint: (any SDKEndpoint)?) -> SDKReply? {
    guard let endpoint else { return RequestAdmission.refusal(head: head, server: proxy.server) }
    return RequestAdmission.refusal(head: head, endpoint: endpoint, limit: limit(endpoint))
  }

  /// Plain HTTP through a proxy names its host in each request: one for another host moves the
  /// connection there, whether it is decoded and forwarded following that host. A request that
  /// names none (origin form, another scheme, a host that is none) is refused: the `400`'s body.
  private func retarget(_ target: RequestTarget) -> String? {
    guard !secure else { return nil }
    guard target.scheme != nil else {
      return "tagscope proxy: a request through the proxy names its host: http://host[:port]/path\n"
    }
    guard target.scheme == "http", let newHost = target.host, let newPort = target.port else {
      return ProxyFrontHandler.absoluteFormProblem(target)
    }
    guard newHost != host || newPort != port else { return nil }
    forwarder.drop()
    host = newHost
    port = newPort
    decodes = proxy.configuration.hosts.contains(newHost)
    return nil
  }

  /// Hands a request `listen` answers (`--no-forward`, an SDK host) to the ``LocalLane`` after
  /// this handler, adding it on first use.
  private func handOnLocally(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    if localLane == nil {
      let lane = LocalLane.handlers(server: proxy.server)
      do {
        try context.pipeline.syncOperations.addHandlers(lane.handlers, position: .after(self))
      } catch {
        context.close(promise: nil)
        return
      }
      localLane = lane.gate
    }
    localLane?.inCharge = true
    state = .local
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }

  /// Decodes (off the event loop when large or compressed) and delivers, as `listen` does, then
  /// forwards once stored; a request no endpoint decodes is forwarded at once.
  private func take(
    head: HTTPRequestHead, endpoint: (any SDKEndpoint)?, body: ByteBuffer, context: ChannelHandlerContext
  ) {
    guard let endpoint else {
      forward(head: head, body: body, context: context)
      return
    }
    guard proxy.server.ingest.hasRoom else {
      // The session is behind: the SDK retries later, as `listen` tells it; nothing is forwarded,
      // so the vendor never gets what the recording lacks.
      answerBusy(head: head, context: context)
      return
    }
    let (limit, peerHost) = (limit(endpoint), self.peerHost)
    // A compressed body is decompressed on the large-body queue, whatever its size.
    let encoded = head.headers.first(name: "content-encoding").map { $0 != "identity" } ?? false
    let bytes = encoded ? max(body.readableBytes, RequestPolicy.offloadBytes) : body.readableBytes
    state = .decoding
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let ledger = RetryLedger()
    let taken = RequestIntake.take(
      bodyBytes: bytes, server: proxy.server, peerHost: peerHost, eventLoop: context.eventLoop,
      ledger: ledger,
      answer: { Self.answer(head: head, body: body, endpoint: endpoint, limit: limit, peerHost: peerHost) },
      done: { reply, accepted in
        let (handler, context) = loopBound.value
        guard case .decoding = handler.state else { return }
        handler.state = .idle
        handler.decoded(reply, accepted: accepted, ledger: ledger, head: head, body: body, context: context)
      })
    guard taken else {
      // Large bodies queue for the one parsing thread within listen's byte budget: past it, the
      // SDK is told to retry, as listen tells it.
      state = .idle
      answerBusy(head: head, context: context)
      return
    }
    proxy.server.statistics.update { $0.proxiedRequests += 1 }
  }

  /// `listen`'s reply to the request: the endpoint's (lazy for large batches), or its refusal of
  /// a body that does not decompress within the limit.
  private static func answer(
    head: HTTPRequestHead, body: ByteBuffer, endpoint: any SDKEndpoint, limit: Int, peerHost: String
  ) -> SDKReply {
    let outcome = BodyDecompression.decode(head: head, body: body, limit: limit)
    guard case .decoded(let bytes) = outcome else {
      return BodyDecompression.refusal(outcome, endpoint: endpoint) ?? RequestAdmission.doesNotDecompress
    }
    let target = RequestTarget(head.uri)
    let request = ReceivedRequest(
      method: head.method, path: target.path, query: target.query, headers: head.headers, body: bytes,
      peerHost: peerHost)
    return RequestIntake.answer(request, endpoint: endpoint, tokenCheck: nil)
  }

  /// What follows the decoding: a limit refused as `listen` refuses it (nothing forwarded), else
  /// forwarded, once the records it `accepted` (delivered, but the SDK's retries of messages
  /// already taken, which `ledger` counts: ``RetryMemory``) are stored.
  private func decoded(
    _ reply: SDKReply, accepted: Bool, ledger: RetryLedger, head: HTTPRequestHead, body: ByteBuffer,
    context: ChannelHandlerContext
  ) {
    if let rejection = reply.rejection, rejection.isLimit, !accepted {
      count(reply, head: head, note: ", answered by tagscope, not forwarded")
      respond(reply, head: head, close: !head.isKeepAlive, context: context)
      return
    }
    count(reply, head: head, note: ", forwarded as it was")
    guard accepted else {
      forward(head: head, body: body, context: context)
      return
    }
    let skipped = ledger.skipped
    if skipped > 0 {
      refusals.report(
        "\(host)\(RequestTarget(head.uri).path): \(skipped) message\(skipped == 1 ? "" : "s") already taken "
          + "from a request answered 503 (the SDK's retry): recorded once, forwarded now",
        server: proxy.server, peerHost: peerHost)
    }
    state = .storing(head: head, body: body, ledger: ledger)
    // A disk too slow (or unable) to write within the request timeout: `503` + `Retry-After`, as
    // from `listen`, and nothing forwarded.
    armRequestDeadline(context: context)
    StorageWait.wait(for: self, server: proxy.server, context: context)
  }

  /// The records of the request being forwarded are stored: it is forwarded now.
  func recordsStored(context: ChannelHandlerContext) {
    guard case .storing(let head, let body, _) = state else { return }
    deadlines.cancelRequest()
    state = .idle
    forward(head: head, body: body, context: context)
  }

  /// Reports an upstream's failure or error answer within the connection's problem budget, as
  /// `listen` reports its problems: a client hammering a dead vendor cannot flood the session.
  func report(_ message: String) {
    refusals.report(TerminalText.sanitizeLines(message), server: proxy.server, peerHost: peerHost)
  }

  private func count(_ reply: SDKReply, head: HTTPRequestHead, note: String = "") {
    refusals.count(
      reply, head: head, path: host + RequestTarget(head.uri).path, server: proxy.server, peerHost: peerHost,
      note: note)
  }

  private func answerBusy(head: HTTPRequestHead, context: ChannelHandlerContext) {
    respond(
      RequestAdmission.busy(server: proxy.server), head: head, close: !head.isKeepAlive, context: context)
  }

  /// Refuses a request before its end, as `listen` does: answered at once (`Connection: close`),
  /// counted and reported; the rest of the request is discarded, then the connection closed.
  private func refuse(_ reply: SDKReply, head: HTTPRequestHead, context: ChannelHandlerContext) {
    count(reply, head: head, note: ", answered by tagscope, not forwarded")
    state = .discarding(discarded: 0)
    respond(reply, head: head, close: false, closeHeader: true, context: context)
  }

  private func forward(head: HTTPRequestHead, body: ByteBuffer, context: ChannelHandlerContext) {
    state = .forwarded
    forwarder.forward(
      head: head, body: body, to: host, port: port, decodes: decodes, closeAfter: closeAfterReply,
      context: context)
  }

  func exchangeEnding(closeAfter: Bool) {
    state = closeAfter ? .discarding(discarded: 0) : .idle
  }

  func exchangeEnded(closeAfter: Bool, context: ChannelHandlerContext) {
    if closeAfter {
      context.close(promise: nil)
    } else if case .idle = state {
      deadlines.armIdle(server: proxy.server, context: context)
    }
  }

  /// A reply from the proxy itself (refused, busy, too slow), written at once as `listen` writes
  /// it; the connection closed after it with `close`, or told it will be with `closeHeader`.
  private func respond(
    _ reply: SDKReply, head request: HTTPRequestHead, close: Bool, closeHeader: Bool = false,
    context: ChannelHandlerContext
  ) {
    var headers = ReplyWriter.headers(of: reply)
    // SDK endpoints answer any page (browser SDKs post from the app's origin), as `listen`'s.
    headers.add(name: "Access-Control-Allow-Origin", value: "*")
    let close = close || closeAfterReply
    // Closing: a request pipelined behind (handed on as this reply is written) is not taken.
    if close { state = .discarding(discarded: 0) }
    // A connection kept alive but idle past `listen`'s keep-alive timeout is closed, as `listen`
    // closes it: idle connections cannot hold the proxy's connection slots.
    let keptAlive = ReplyWriter.answer(
      reply, headers: &headers, request: request, close: close, announceClose: closeHeader, context: context)
    if keptAlive { deadlines.armIdle(server: proxy.server, context: context) }
  }

  private func armRequestDeadline(context: ChannelHandlerContext) {
    deadlines.armRequest(for: self, server: proxy.server, context: context)
  }

  func requestTimedOut(context: ChannelHandlerContext) {
    deadlines.requestExpired()
    proxy.server.statistics.timeout(.request)
    switch state {
    case .storing(let head, _, let ledger):
      // Taken but not durable in time: the SDK is told to retry, as `listen` tells it, and the
      // request is not forwarded (the retry is, so the vendor gets it once); its records are still
      // written when the disk takes them, and its messages remembered so the retry is not
      // recorded again.
      refusals.report(
        "\(host)\(RequestTarget(head.uri).path): records not stored within the request timeout: answered 503, not forwarded; written when the disk takes them",
        server: proxy.server, peerHost: peerHost)
      respond(StorageWait.timedOut(ledger, server: proxy.server), head: head, close: true, context: context)
    case .collecting(let head, _, _):
      refusals.report("request not complete in time, closed", server: proxy.server, peerHost: peerHost)
      respond(RequestPolicy.requestTimeout, head: head, close: true, context: context)
    default:
      context.close(promise: nil)
    }
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadlines.cancelAll()
    state = .idle
    forwarder.end()
    refusals.close(server: proxy.server, peerHost: peerHost)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    let head: HTTPRequestHead
    let endpoint: (any SDKEndpoint)?
    switch state {
    case .collecting(let requestHead, let requestEndpoint, _):
      (head, endpoint) = (requestHead, requestEndpoint)
    case .idle:
      (head, endpoint) = (HTTPRequestHead(version: .http1_1, method: .POST, uri: "/"), nil)
    case .local:
      context.fireErrorCaught(error)
      return
    case .decoding, .storing, .forwarded:
      // A reply is owed (a TLS client's end without `close_notify`, say): written first, then
      // the connection closes.
      closeAfterReply = true
      forwarder.closeAfterAnswer()
      return
    case .discarding:
      context.close(promise: nil)
      return
    }
    guard case .refuse(let reply) = RequestFailure.of(error, endpoint: endpoint) else {
      context.close(promise: nil)
      return
    }
    deadlines.cancelRequest()
    count(reply, head: head, note: ", answered by tagscope, not forwarded")
    respond(reply, head: head, close: true, context: context)
  }
}
