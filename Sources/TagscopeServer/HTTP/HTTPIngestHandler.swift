import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// Collects one HTTP request at a time within its endpoint's body limit and deadline, hands it to
/// the SDK endpoint, delivers what it accepted, then answers as the real service does.
///
/// The reply is written once the ingest says the records are stored (``ListenIngest/whenStored(_:)``:
/// with `--record`, written and fsynced), so a client that got `200` knows its events are in the
/// recording; while the ingest queue is full a request gets `503` + `Retry-After`
/// and nothing of it is taken. A request whose records are taken but not durable within the request
/// timeout gets `503` + `Retry-After` too; they are still written, and its messages are remembered
/// (``RetryMemory``) so that the SDK's retry does not record them twice. A body over the limit is
/// answered at once and the connection closed once the client stops sending; a request that does not finish in time gets `408` and is closed.
final class HTTPIngestHandler: ChannelInboundHandler, RequestPipelineHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private enum State {
    /// Between requests.
    case idle
    /// Reading the body of a request for `endpoint`.
    case collecting(head: HTTPRequestHead, endpoint: any SDKEndpoint, body: ByteBuffer)
    /// A request whose reply does not depend on its body (404, 405, preflight).
    case answering(head: HTTPRequestHead, route: EndpointRouter.Route)
    /// Already answered (refused); discarding the rest of the request, then closing.
    case discarding(discarded: Int)
    /// A large body being parsed off the event loop; the reply follows when it is done.
    case parsing
    /// The request's records delivered; the reply waits until they are stored (durable).
    case storing(head: HTTPRequestHead, ledger: RetryLedger, reply: SDKReply)
  }

  private let server: ServerContext
  private var state = State.idle
  private var deadlines = RequestDeadlines()
  private var peerHost = "unknown"
  private var refusals = RefusalLog()
  /// Whether the connection closes once the request being answered has its reply: the client
  /// ended its side (a half-close), or what followed the request was refused meanwhile.
  private var closeAfterReply = false
  /// The query API request waiting for its reply, if any, and its route (a `wait` is a long poll,
  /// up to its timeout).
  private var pendingAPI: (cancellation: APICancellation, route: APIRoute)?

  init(server: ServerContext) { self.server = server }

  func handlerAdded(context: ChannelHandlerContext) {
    peerHost = context.channel.remoteAddress?.ipAddress ?? "unknown"
    armRequestDeadline(context: context)
  }

  /// A client's half-close: a reply still owed (a request being parsed or stored) is written
  /// first, then the connection closes; otherwise it closes now. A query API `wait` is not owed:
  /// the end of its client's input (a UI test stopped, its process gone — a closed socket reads as
  /// a half-close here) ends the wait at once, as a proxy takes a client's end as an abort, rather
  /// than holding it, and its filter's cost, until its timeout.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    closeAfterReply = true
    switch state {
    case .parsing where pendingAPI?.route == .wait:
      state = .idle
      pendingAPI?.cancellation.cancel()
      pendingAPI = nil
      closeSoon(context: context)
    case .parsing, .storing: break
    case .idle, .collecting, .answering, .discarding: closeSoon(context: context)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): receiveHead(head, context: context)
    case .body(var chunk): receiveBody(&chunk, context: context)
    case .end: receiveEnd(context: context)
    }
  }

  private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    // After a refusal the connection is closing: a request pipelined behind it is not answered
    // (its reply would be counted and then cut off by the close).
    if case .discarding = state { return }
    deadlines.cancelIdle()
    armRequestDeadline(context: context)
    let path = String(
      head.uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
    let route = EndpointRouter.route(
      method: head.method, path: path, query: Self.query(head.uri), host: head.headers.first(name: "host"))
    if path.hasPrefix(APIRoute.prefix), let refusal = apiRefusal(head, context: context) {
      answerWithoutBody(.apiRefused(refusal), head: head, context: context)
      return
    }
    guard case .endpoint(let endpoint) = route else {
      answerWithoutBody(route, head: head, context: context)
      return
    }
    // A declared length over the limit, or one that is not a number (past Int.max), is refused at
    // once rather than waited for; an encoding the decompressor does not know, rather than read as
    // identity.
    if let refusal = RequestAdmission.refusal(
      head: head, endpoint: endpoint, limit: RequestAdmission.limit(endpoint, server: server))
    {
      answerBeforeBody(refusal, head: head, context: context)
      return
    }
    state = .collecting(head: head, endpoint: endpoint, body: BodyCollector.start(head, context: context))
  }

  /// Why a request to a query API path is refused from its head, before its route is looked at:
  /// a web page's or another host's request (`403`, ``QueryAPIGuard``), then a missing or wrong
  /// `--token` (`401`). Nothing about the API (its routes, their methods) is told to a caller
  /// without the token, and one waiting for `100 Continue` gets the refusal at once. A CORS
  /// preflight carries no credentials: it is answered by its route.
  private func apiRefusal(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> APIResponse? {
    if let refusal = QueryAPIGuard(configuration: server.configuration).refusal(
      headers: head.headers, port: context.channel.localAddress?.port)
    {
      return .error(403, refusal)
    }
    if head.method != .OPTIONS, let tokenCheck = server.tokenCheck,
      !tokenCheck.authorizes(headers: head.headers, query: Self.query(head.uri))
    {
      return .error(401, "missing or wrong token (send Authorization: Bearer TOKEN)")
    }
    return nil
  }

  /// A request whose answer needs no body: answered at its end, or now when the client waits for
  /// `100 Continue` (``answerBeforeBody(_:head:context:)``). A query API request is answered at
  /// its end, as its route says: a client waiting is sent `100 Continue`.
  private func answerWithoutBody(
    _ route: EndpointRouter.Route, head: HTTPRequestHead, context: ChannelHandlerContext
  ) {
    if BodyCollector.expectsContinue(head), !route.isAPI {
      answerBeforeBody(Self.reply(for: route), head: head, context: context)
      return
    }
    if route.isAPI { _ = BodyCollector.start(head, context: context) }
    state = .answering(head: head, route: route)
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
    count(reply, head: head)
    respond(reply, head: head, close: true, context: context)
  }

  private func receiveBody(_ chunk: inout ByteBuffer, context: ChannelHandlerContext) {
    switch state {
    case .collecting(let head, let endpoint, var body):
      state = .idle
      if !BodyCollector.append(&chunk, to: &body, limit: BodyCollector.limit(endpoint, server: server)) {
        refuse(endpoint.replyTooLarge(), head: head, context: context)
      } else {
        state = .collecting(head: head, endpoint: endpoint, body: body)
      }
    case .discarding(let discarded):
      let (total, closeNow) = BodyCollector.discard(chunk.readableBytes, after: discarded)
      if closeNow { context.close(promise: nil) }
      state = .discarding(discarded: total)
    case .answering, .idle, .parsing, .storing:
      break
    }
  }

  private func receiveEnd(context: ChannelHandlerContext) {
    deadlines.cancelRequest()
    let current = state
    state = .idle
    switch current {
    case .collecting(let head, _, _) where !server.ingest.hasRoom:
      respond(RequestAdmission.busy(server: server), head: head, close: !head.isKeepAlive, context: context)
    case .collecting(let head, let endpoint, let body):
      let request = ReceivedRequest(
        method: head.method, path: Self.path(head.uri), query: Self.query(head.uri), headers: head.headers,
        body: Array(body.readableBytesView), peerHost: peerHost)
      let tokenCheck = server.tokenCheck
      state = .parsing
      let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
      let ledger = RetryLedger()
      let taken = RequestIntake.take(
        bodyBytes: request.body.count, server: server, peerHost: peerHost, eventLoop: context.eventLoop,
        ledger: ledger,
        answer: { RequestIntake.answer(request, endpoint: endpoint, tokenCheck: tokenCheck) },
        done: { reply, accepted in
          let (handler, context) = loopBound.value
          guard case .parsing = handler.state else { return }
          handler.state = .idle
          handler.finish(reply, accepted: accepted, ledger: ledger, head: head, context: context)
        })
      if !taken {
        state = .idle
        respond(RequestAdmission.busy(server: server), head: head, close: !head.isKeepAlive, context: context)
      }
    case .answering(let head, .api(let route)):
      answerAPI(route, head: head, context: context)
    case .answering(let head, let route):
      let reply = Self.reply(for: route)
      count(reply, head: head)
      respond(reply, head: head, close: !head.isKeepAlive, context: context)
    case .discarding:
      // Closing: a request pipelined behind the refused one is not taken (its reply would be cut off).
      state = current
      closeSoon(context: context)
    case .parsing, .storing:
      closeSoon(context: context)
    case .idle:
      break
    }
  }

  /// Closes once the writes under way are passed on: the end of a refused request can arrive
  /// while the reply before it is being written (the pipelining handler hands on the next request
  /// from within that write), and closing at once would drop that reply.
  private func closeSoon(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    context.eventLoop.execute { loopBound.value.close(promise: nil) }
  }

  /// A query API request (its token checked at its head, ``apiRefusal(_:context:)``): the
  /// ``QueryAPI``'s answer, written on this event loop whenever it comes (a wait answers later;
  /// the connection reads nothing meanwhile).
  private func answerAPI(_ route: APIRoute, head: HTTPRequestHead, context: ChannelHandlerContext) {
    let query = Self.query(head.uri)
    let immediate: APIResponse?
    if route == .openapi {
      immediate = APIResponse(status: 200, body: OpenAPIDocument.json)
    } else if server.query == nil {
      immediate = .error(503, "the query API is not available")
    } else {
      immediate = nil
    }
    if let immediate {
      respond(SDKReply(api: immediate), head: head, close: !head.isKeepAlive, context: context)
      return
    }
    state = .parsing
    let request = APIRequest(
      route: route, query: query.filter { $0.name != "token" }, statistics: server.statistics.snapshot,
      eventLoop: context.eventLoop)
    pendingAPI = (request.cancellation, route)
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.query?.answer(request) { response in
      eventLoop.execute {
        let (handler, context) = loopBound.value
        guard case .parsing = handler.state else { return }
        handler.state = .idle
        handler.pendingAPI = nil
        handler.respond(SDKReply(api: response), head: head, close: !head.isKeepAlive, context: context)
      }
    }
  }

  private func refuse(_ reply: SDKReply, head: HTTPRequestHead, context: ChannelHandlerContext) {
    count(reply, head: head)
    state = .discarding(discarded: 0)
    respond(reply, head: head, close: false, keepAliveHeader: false, context: context)
  }

  /// Counts a refused request and reports it to the consumer.
  private func count(_ reply: SDKReply, head: HTTPRequestHead) {
    refusals.count(reply, head: head, path: Self.path(head.uri), server: server, peerHost: peerHost)
  }

  /// Reports a problem within the connection's budget.
  private func report(_ message: String) {
    refusals.report(message, server: server, peerHost: peerHost)
  }

  /// Counts the reply and answers once what it `accepted` (delivered already, but an SDK's retries
  /// of messages already taken, which `ledger` counts: see ``RetryMemory``) is stored (with
  /// `--record`, written and fsynced: a `200` means durable, for the retried messages too).
  private func finish(
    _ reply: SDKReply, accepted: Bool, ledger: RetryLedger, head: HTTPRequestHead,
    context: ChannelHandlerContext
  ) {
    count(reply, head: head)
    let skipped = ledger.skipped
    if skipped > 0 {
      report(
        "\(head.method.rawValue) \(Self.path(head.uri)): \(skipped) message\(skipped == 1 ? "" : "s") already taken "
          + "from a request answered 503 (the SDK's retry): skipped, recorded once")
    }
    guard accepted else {
      respond(reply, head: head, close: !head.isKeepAlive, context: context)
      return
    }
    state = .storing(head: head, ledger: ledger, reply: reply)
    // A disk too slow (or unable) to write within the request timeout: the request then ends with
    // `503` + `Retry-After` (no `200`), and the client keeps its events.
    armRequestDeadline(context: context)
    StorageWait.wait(for: self, server: server, context: context)
  }

  /// The records of the request being answered are stored: its reply is written.
  func recordsStored(context: ChannelHandlerContext) {
    guard case .storing(let head, _, let reply) = state else { return }
    deadlines.cancelRequest()
    state = .idle
    respond(reply, head: head, close: !head.isKeepAlive, context: context)
  }

  private static func reply(for route: EndpointRouter.Route) -> SDKReply {
    switch route {
    case .preflight: return SDKReply(status: .noContent, contentType: "text/plain", body: "")
    case .settings(let reply): return reply
    case .methodNotAllowed:
      return SDKReply(
        status: .methodNotAllowed, contentType: "text/plain", body: "Method not allowed",
        rejection: .unknownEndpoint)
    case .apiRefused(let response): return SDKReply(api: response)
    case .api: return SDKReply(api: .error(503, "the query API is not available"))
    case .notFound, .endpoint:
      return SDKReply(
        status: .notFound, contentType: "text/plain", body: "Not found", rejection: .unknownEndpoint)
    }
  }

  private func respond(
    _ reply: SDKReply, head request: HTTPRequestHead, close: Bool, keepAliveHeader: Bool = true,
    context: ChannelHandlerContext
  ) {
    // A request the decoder hands on after the connection closed (its last bytes, decoded as the
    // pipeline is taken down) is still taken, as a server takes a request it read whole; its reply
    // reaches no one and is not counted as answered.
    if context.channel.isActive { server.statistics.update { $0.httpRequests += 1 } }
    var headers = ReplyWriter.headers(of: reply)
    addCORSHeaders(to: &headers, request: request)
    let close = close || closeAfterReply
    // Closing: a request pipelined behind (handed on as this reply is written) is not taken.
    if close { state = .discarding(discarded: 0) }
    let keptAlive = ReplyWriter.answer(
      reply, headers: &headers, request: request, close: close, announceClose: !keepAliveHeader,
      context: context)
    if keptAlive { deadlines.armIdle(server: server, context: context) }
  }

  /// SDK endpoints answer any page (`*`: browser SDKs post from the app's origin); the query API
  /// only the `--cors-origin` one (``QueryAPIGuard``).
  private func addCORSHeaders(to headers: inout HTTPHeaders, request: HTTPRequestHead) {
    let isAPI = Self.path(request.uri).hasPrefix(APIRoute.prefix)
    if isAPI {
      headers.add(name: "Vary", value: "Origin")
      guard
        let origin = QueryAPIGuard(configuration: server.configuration).allowedOrigin(
          headers: request.headers)
      else { return }
      headers.add(name: "Access-Control-Allow-Origin", value: origin)
    } else {
      headers.add(name: "Access-Control-Allow-Origin", value: "*")
    }
    if request.method == .OPTIONS {
      headers.add(name: "Access-Control-Allow-Methods", value: "GET, POST, OPTIONS")
      headers.add(name: "Access-Control-Allow-Headers", value: isAPI ? "Authorization, Content-Type" : "*")
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // One reply per request: a request already answered (or a connection between requests, for
    // anything but a parse error) is just closed.
    switch state {
    case .parsing, .storing:
      // A reply is owed (the request's records are taken): written first, then the connection
      // closes, so what followed cannot make the client think its request was lost.
      closeAfterReply = true
      return
    case .discarding:
      // Already answered: a second error of the same body (the decompressor reports each part).
      closeSoon(context: context)
      return
    case .idle where !(error is HTTPParserError):
      closeSoon(context: context)
      return
    default: break
    }
    let endpoint: (any SDKEndpoint)?
    if case .collecting(_, let collecting, _) = state { endpoint = collecting } else { endpoint = nil }
    let reply: SDKReply
    switch RequestFailure.of(error, endpoint: endpoint) {
    case .truncated:
      server.statistics.update { $0.truncated += 1 }
      state = .idle
      closeSoon(context: context)
      return
    case .close:
      closeSoon(context: context)
      return
    case .refuse(let refusal): reply = refusal
    }
    let head: HTTPRequestHead
    switch state {
    case .collecting(let requestHead, _, _), .answering(let requestHead, _): head = requestHead
    default: head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/")
    }
    count(reply, head: head)
    respond(reply, head: head, close: true, context: context)
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadlines.cancelAll()
    if case .collecting = state { server.statistics.update { $0.truncated += 1 } }
    state = .idle
    pendingAPI?.cancellation.cancel()
    pendingAPI = nil
    refusals.close(server: server, peerHost: peerHost)
    context.fireChannelInactive()
  }

  private func armRequestDeadline(context: ChannelHandlerContext) {
    deadlines.armRequest(for: self, server: server, context: context)
  }

  func requestTimedOut(context: ChannelHandlerContext) {
    deadlines.requestExpired()
    server.statistics.timeout(.request)
    if case .storing(let head, let ledger, _) = state {
      // Taken but not durable in time: the late acknowledgement finds this request answered.
      report(
        "records not stored within the request timeout: answered 503, written when the disk takes them "
          + "(the SDK's retry of them is skipped)")
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

  private static func path(_ uri: String) -> String {
    String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  private static func query(_ uri: String) -> [(name: String, value: String)] {
    guard let mark = uri.firstIndex(of: "?") else { return [] }
    return FormDecoding.pairs(uri[uri.index(after: mark)...])
  }
}
