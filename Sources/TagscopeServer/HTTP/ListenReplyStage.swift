import NIOCore
import NIOHTTP1

/// `listen`'s final stage of the SDK request pipeline (``RequestPipeline``): routes a request by
/// its path (an SDK endpoint, the query API, a page it answers from the head), answers the query
/// API, and replies as the real service does once a request's records are stored (with `--record`,
/// written and fsynced: a client that got `200` knows its events are in the recording).
final class ListenReplyStage: FinalStage {
  let server: ServerContext
  var refusalNote: String { "" }
  /// The query API request waiting for its reply, if any, and its route (a `wait` is a long poll,
  /// up to its timeout).
  private var pendingAPI: (cancellation: APICancellation, route: APIRoute)?

  init(server: ServerContext) { self.server = server }

  func attach(to pipeline: RequestPipeline<ListenReplyStage>) {}

  func route(
    _ head: HTTPRequestHead, pipeline: RequestPipeline<ListenReplyStage>, context: ChannelHandlerContext
  ) -> HeadRoute {
    let path = Self.path(head.uri)
    let route = EndpointRouter.route(
      method: head.method, path: path, query: Self.query(head.uri), host: head.headers.first(name: "host"))
    if path.hasPrefix(APIRoute.prefix), let refusal = apiRefusal(head, context: context) {
      let refused = EndpointRouter.Route.apiRefused(refusal)
      return .answer(refused, early: Self.reply(for: refused))
    }
    guard case .endpoint(let endpoint) = route else { return .answer(route, early: Self.reply(for: route)) }
    return .collect(endpoint)
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

  func answer(
    _ route: EndpointRouter.Route, head: HTTPRequestHead, pipeline: RequestPipeline<ListenReplyStage>,
    context: ChannelHandlerContext
  ) {
    guard case .api(let apiRoute) = route else {
      let reply = Self.reply(for: route)
      pipeline.count(reply, head: head)
      pipeline.respond(reply, head: head, close: !head.isKeepAlive, context: context)
      return
    }
    answerAPI(apiRoute, head: head, pipeline: pipeline, context: context)
  }

  /// A query API request (its token checked at its head, ``apiRefusal(_:context:)``): the
  /// ``QueryAPI``'s answer, written on this event loop whenever it comes (a wait answers later;
  /// the connection reads nothing meanwhile).
  private func answerAPI(
    _ route: APIRoute, head: HTTPRequestHead, pipeline: RequestPipeline<ListenReplyStage>,
    context: ChannelHandlerContext
  ) {
    let immediate: APIResponse?
    if route == .openapi {
      immediate = APIResponse(status: 200, body: OpenAPIDocument.json)
    } else if server.query == nil {
      immediate = .error(503, "the query API is not available")
    } else {
      immediate = nil
    }
    if let immediate {
      pipeline.respond(SDKReply(api: immediate), head: head, close: !head.isKeepAlive, context: context)
      return
    }
    pipeline.awaitAnswer()
    let request = APIRequest(
      route: route, query: Self.query(head.uri).filter { $0.name != "token" },
      statistics: server.statistics.snapshot, eventLoop: context.eventLoop)
    pendingAPI = (request.cancellation, route)
    let loopBound = NIOLoopBound((self, pipeline, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.query?.answer(request) { response in
      eventLoop.execute {
        let (stage, pipeline, context) = loopBound.value
        stage.pendingAPI = nil
        pipeline.answered(SDKReply(api: response), head: head, context: context)
      }
    }
  }

  /// A query API `wait` is given up at the end of its client's input (a UI test stopped, its
  /// process gone — a closed socket reads as a half-close here), as a proxy takes a client's end
  /// as an abort, rather than held, with its filter's cost, until its timeout.
  func abandonsAwaitedAnswer() -> Bool {
    guard pendingAPI?.route == .wait else { return false }
    pendingAPI?.cancellation.cancel()
    pendingAPI = nil
    return true
  }

  func countedPath(_ head: HTTPRequestHead) -> String { Self.path(head.uri) }

  func intake(head: HTTPRequestHead, endpoint: any SDKEndpoint, body: ByteBuffer, peerHost: String)
    -> (bytes: Int, answer: @Sendable () -> SDKReply)
  {
    let request = ReceivedRequest(
      method: head.method, path: Self.path(head.uri), query: Self.query(head.uri), headers: head.headers,
      body: Array(body.readableBytesView), peerHost: peerHost)
    let tokenCheck = server.tokenCheck
    return (request.body.count, { RequestIntake.answer(request, endpoint: endpoint, tokenCheck: tokenCheck) })
  }

  func intakeTaken() {}

  func outcome(of reply: SDKReply, accepted: Bool) -> (IntakeOutcome, note: String) {
    (accepted ? .store : .reply, "")
  }

  func skippedReport(_ head: HTTPRequestHead, skipped: Int) -> String {
    "\(head.method.rawValue) \(Self.path(head.uri)): \(skipped) message\(skipped == 1 ? "" : "s") already taken "
      + "from a request answered 503 (the SDK's retry): skipped, recorded once"
  }

  func storageTimeoutReport(_ head: HTTPRequestHead) -> String {
    "records not stored within the request timeout: answered 503, written when the disk takes them "
      + "(the SDK's retry of them is skipped)"
  }

  /// `listen` answers from the intake's reply: the body is not read again.
  var completesWithBody: Bool { false }

  /// The stored request's reply, written now.
  func complete(
    head: HTTPRequestHead, body: ByteBuffer, reply: SDKReply?, closeAfter: Bool,
    context: ChannelHandlerContext
  ) -> SDKReply? {
    reply ?? Self.reply(for: .notFound)
  }

  func closeAfterAnswer() {}

  func end() {
    pendingAPI?.cancellation.cancel()
    pendingAPI = nil
  }

  /// Counts the request answered and adds the CORS headers: SDK endpoints answer any page (`*`:
  /// browser SDKs post from the app's origin); the query API only the `--cors-origin` one
  /// (``QueryAPIGuard``).
  func addHeaders(to headers: inout HTTPHeaders, request: HTTPRequestHead, context: ChannelHandlerContext) {
    // A request the decoder hands on after the connection closed (its last bytes, decoded as the
    // pipeline is taken down) is still taken, as a server takes a request it read whole; its reply
    // reaches no one and is not counted as answered.
    if context.channel.isActive { server.statistics.update { $0.httpRequests += 1 } }
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

  private static func path(_ uri: String) -> String {
    String(uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? "")
  }

  private static func query(_ uri: String) -> [(name: String, value: String)] {
    guard let mark = uri.firstIndex(of: "?") else { return [] }
    return FormDecoding.pairs(uri[uri.index(after: mark)...])
  }
}
