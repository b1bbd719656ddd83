import NIOCore
import NIOHTTP1
import TagscopeBasics

/// The forward stage as the proxy's final stage of the SDK request pipeline (``RequestPipeline``):
/// a request to an SDK endpoint is held to `listen`'s rules, through the same code (admission,
/// ``ChunkSizeGuard``, ``BodyDecompression``, ``RequestIntake``). What `listen` refuses as a limit
/// (size, events, encoding: ``RejectionReason/isLimit``) the proxy answers itself with the same
/// status and vendor error shape, recorded as a problem, and forwards nothing; a body whose
/// content the decoder refuses is forwarded as it was (the vendor's answer is the one the SDK acts
/// on), recorded as a problem. A store slower than the request timeout gets `503` +
/// `Retry-After`, as from `listen`, and the request is not forwarded: the SDK retries it, and the
/// vendor gets it once.
extension ForwardStage: FinalStage {
  var server: ServerContext { proxy.server }
  var refusalNote: String { ", answered by tagscope, not forwarded" }

  func attach(to pipeline: RequestPipeline<ForwardStage>) { self.pipeline = pipeline }

  /// Plain HTTP names its host in each request (``retarget(_:)``); a request `listen` answers
  /// (`--no-forward`, an SDK host) is handed to a ``LocalLane``; the whole body of any other is
  /// read before anything is forwarded (the `Expect` header is not: the proxy answers
  /// `100 Continue` itself).
  func route(
    _ head: HTTPRequestHead, pipeline: RequestPipeline<ForwardStage>, context: ChannelHandlerContext
  ) -> HeadRoute {
    pendingWire = nil
    if let problem = retarget(RequestTarget(head.uri)) {
      return .refuse(SDKReply(status: .badRequest, contentType: "text/plain; charset=utf-8", body: problem))
    }
    if decodes && !proxy.configuration.forward && !secure {
      return handOnLocally(pipeline: pipeline, context: context)
    }
    localLane?.inCharge = false
    return .collect(decodes ? Self.endpoint(for: head, host: host) : nil)
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
    drop()
    host = newHost
    port = newPort
    decodes = proxy.configuration.hosts.contains(newHost)
    return nil
  }

  /// Hands a request `listen` answers (`--no-forward`, an SDK host) to the ``LocalLane`` after
  /// the pipeline, adding it on first use.
  private func handOnLocally(pipeline: RequestPipeline<ForwardStage>, context: ChannelHandlerContext)
    -> HeadRoute
  {
    if localLane == nil {
      let lane = LocalLane.handlers(server: proxy.server)
      do {
        try context.pipeline.syncOperations.addHandlers(lane.handlers, position: .after(pipeline))
      } catch {
        context.close(promise: nil)
        return .closed
      }
      localLane = lane.gate
    }
    localLane?.inCharge = true
    return .handedOn
  }

  func answer(
    _ route: EndpointRouter.Route, head: HTTPRequestHead, pipeline: RequestPipeline<ForwardStage>,
    context: ChannelHandlerContext
  ) {
    // Never routed so (``route(_:pipeline:context:)``): the request is forwarded instead.
    forward(
      head: head, body: context.channel.allocator.buffer(capacity: 0), closeAfter: true, context: context)
  }

  func countedPath(_ head: HTTPRequestHead) -> String { host + RequestTarget(head.uri).path }

  /// `listen`'s reply to the request, decompressed on the large-body queue whatever its size when
  /// compressed: the endpoint's (lazy for large batches), or its refusal of a body that does not
  /// decompress within the limit.
  func intake(head: HTTPRequestHead, endpoint: any SDKEndpoint, body: ByteBuffer, peerHost: String)
    -> (bytes: Int, answer: @Sendable () -> SDKReply)
  {
    let limit = BodyCollector.limit(endpoint, server: proxy.server)
    let encoded = head.headers.first(name: "content-encoding").map { $0 != "identity" } ?? false
    let bytes = encoded ? max(body.readableBytes, RequestPolicy.offloadBytes) : body.readableBytes
    return (
      bytes, { Self.answer(head: head, body: body, endpoint: endpoint, limit: limit, peerHost: peerHost) }
    )
  }

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

  /// The records of an SDK request go with the vendor exchange it is forwarded in: its answer
  /// (the proxy's own `502`, `504` or `403` for an upstream that failed) reaches the delivery
  /// ledger. A request answered `503` (records not stored in time) is not forwarded: no answer.
  func wireExchange() -> WireExchange? {
    let wire = WireExchange()
    pendingWire = wire
    return wire
  }

  func intakeTaken() { proxy.server.statistics.update { $0.proxiedRequests += 1 } }

  /// A limit refused as `listen` refuses it is answered (nothing forwarded); anything else is
  /// forwarded as it was, once the records it delivered are stored.
  func outcome(of reply: SDKReply, accepted: Bool) -> (IntakeOutcome, note: String) {
    if let rejection = reply.rejection, rejection.isLimit, !accepted { return (.reply, refusalNote) }
    return (accepted ? .store : .complete, ", forwarded as it was")
  }

  func skippedReport(_ head: HTTPRequestHead, skipped: Int) -> String {
    "\(host)\(RequestTarget(head.uri).path): \(skipped) message\(skipped == 1 ? "" : "s") already taken "
      + "from a request answered 503 (the SDK's retry): recorded once, forwarded now"
  }

  func storageTimeoutReport(_ head: HTTPRequestHead) -> String {
    "\(host)\(RequestTarget(head.uri).path): records not stored within the request timeout: answered 503, "
      + "not forwarded; written when the disk takes them"
  }

  /// Forwards the request (its records stored, or none decoded): the vendor's answer is relayed.
  func complete(
    head: HTTPRequestHead, body: ByteBuffer, reply: SDKReply?, closeAfter: Bool,
    context: ChannelHandlerContext
  ) -> SDKReply? {
    forward(head: head, body: body, closeAfter: closeAfter, context: context)
    return nil
  }

  /// SDK endpoints answer any page (browser SDKs post from the app's origin), as `listen`'s.
  func addHeaders(to headers: inout HTTPHeaders, request: HTTPRequestHead, context: ChannelHandlerContext) {
    headers.add(name: "Access-Control-Allow-Origin", value: "*")
  }

  func abandonsAwaitedAnswer() -> Bool { false }

  /// Reports an upstream's failure or error answer within the connection's problem budget, as
  /// `listen` reports its problems: a client hammering a dead vendor cannot flood the session.
  func report(_ message: String) {
    pipeline?.report(TerminalText.sanitizeLines(message))
  }
}
