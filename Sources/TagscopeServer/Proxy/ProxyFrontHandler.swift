import NIOCore
import NIOHTTP1
import NIOSSL

/// The first request on a proxy connection decides what the connection is:
/// - `CONNECT host:port` to an SDK host: `200`, then TLS with the host's minted leaf, then each
///   request decoded and forwarded (``ForwardingHandler``), or answered as `listen` answers with
///   `--no-forward`;
/// - `CONNECT` to any other host: a byte-for-byte tunnel (``TunnelGlue``), never decrypted;
/// - a plain-HTTP request in absolute form: forwarded (decoded too for an SDK host);
/// - a request to the proxy itself (`/`, `/ca.pem`): the CA certificate to install on a device.
final class ProxyFrontHandler: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart
  typealias InboundOut = HTTPServerRequestPart

  private enum State {
    case waiting
    /// A `CONNECT` head read; waiting for its end.
    case connect(HTTPRequestHead, Authority)
    /// Switching protocols: bytes that arrive meanwhile (an early TLS hello) are kept.
    case switching(pending: [NIOAny])
    /// A request to the proxy itself.
    case own(HTTPRequestHead)
    /// Refused: discarding the rest, then closing.
    case refused
    /// Handed over to the handlers installed after this one, which is being removed: what still
    /// reaches it is passed on (a write those handlers flush can read the socket again, before
    /// this handler is out of the pipeline).
    case handedOver
  }

  private let proxy: ProxyContext
  private let decoder: ByteToMessageHandler<HTTPRequestDecoder>
  private let encoder: HTTPResponseEncoder
  private let chunkGuard: ChunkSizeGuard
  private var state = State.waiting
  private var deadline: Scheduled<Void>?
  /// The client ended its side (a half-close) while the connection was switching protocols: the
  /// handlers installed get the end after the bytes kept.
  private var inputClosed = false

  /// The front of a connection whose HTTP codec is `encoder` and `decoder`, with `chunkGuard`
  /// before the decoder (``chunkGuard(proxy:)``): all three are taken out for a `CONNECT`.
  init(
    proxy: ProxyContext, decoder: ByteToMessageHandler<HTTPRequestDecoder>, encoder: HTTPResponseEncoder,
    chunkGuard: ChunkSizeGuard
  ) {
    self.proxy = proxy
    self.decoder = decoder
    self.encoder = encoder
    self.chunkGuard = chunkGuard
  }

  /// The chunk-size guard of plain HTTP through the proxy: a request to an SDK host is held to its
  /// endpoint's body limit, as `listen` holds it; any other to the server's.
  static func chunkGuard(proxy: ProxyContext) -> ChunkSizeGuard {
    ChunkSizeGuard(limit: proxy.server.configuration.maximumBodyBytes) { requestLine in
      let parts = requestLine.split(separator: " ")
      guard parts.count >= 2, let host = RequestTarget(String(parts[1])).host,
        proxy.configuration.hosts.contains(host)
      else { return nil }
      return ChunkSizeGuard.endpointLimit(requestLine: requestLine)
    }
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let server = proxy.server
    deadline = context.eventLoop.scheduleTask(in: server.configuration.firstBytesTimeout) {
      server.statistics.timeout(.silent)
      loopBound.value.close(promise: nil)
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

  /// A client's half-close: before a request is complete, the connection closes; while it
  /// switches protocols, the end is passed on after the bytes kept (a tunnel passes it to the
  /// host); a reply of the proxy's own is written, then the connection closes.
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    guard case ChannelEvent.inputClosed = event else {
      context.fireUserInboundEventTriggered(event)
      return
    }
    switch state {
    case .switching: inputClosed = true
    case .waiting, .connect: context.close(promise: nil)
    case .own, .refused: break
    case .handedOver: context.fireUserInboundEventTriggered(event)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .handedOver = state {
      context.fireChannelRead(data)
      return
    }
    if case .switching(var pending) = state {
      // The decoder, being removed, hands over what it had read past the request: raw bytes.
      pending.append(data)
      state = .switching(pending: pending)
      return
    }
    switch unwrapInboundIn(data) {
    case .head(let head): receiveHead(head, context: context)
    case .body: break
    case .end: receiveEnd(context: context)
    }
  }

  private func receiveHead(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    guard case .waiting = state else { return }
    deadline?.cancel()
    let toProxyItself = head.method != .CONNECT && RequestTarget(head.uri).scheme == nil
    if !toProxyItself, let tokenCheck = proxy.server.tokenCheck,
      !tokenCheck.authorizesProxy(headers: head.headers)
    {
      // With --token the proxy is no open relay: a device's proxy settings send the token as the
      // password of the proxy's authentication.
      state = .refused
      proxy.server.statistics.reject(.badToken)
      respond(
        .proxyAuthenticationRequired, "tagscope proxy: send the --token as the proxy password",
        extraHeaders: [("Proxy-Authenticate", #"Basic realm="tagscope proxy""#)], to: head, context: context)
      return
    }
    if head.method == .CONNECT {
      switch Authority.parse(head.uri, defaultPort: nil) {
      case .success(let authority):
        state = .connect(head, authority)
      case .failure(let problem):
        state = .refused
        respond(.badRequest, "tagscope proxy: bad CONNECT target: \(problem)\n", context: context)
      }
      return
    }
    let target = RequestTarget(head.uri)
    guard let scheme = target.scheme else {
      state = .own(head)
      return
    }
    guard scheme == "http", let host = target.host, let port = target.port else {
      state = .refused
      respond(.badRequest, Self.absoluteFormProblem(target), to: head, context: context)
      return
    }
    // Plain HTTP through the proxy: this connection now carries requests for that host.
    let intercepted = proxy.configuration.hosts.contains(host)
    do {
      try installHTTP(host: host, port: port, secure: false, decodes: intercepted, context: context)
    } catch {
      context.close(promise: nil)
      return
    }
    state = .handedOver
    context.fireChannelRead(wrapInboundOut(.head(head)))
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  private func receiveEnd(context: ChannelHandlerContext) {
    switch state {
    case .connect(_, let authority):
      if proxy.configuration.hosts.contains(authority.host) {
        intercept(authority, context: context)
      } else {
        tunnel(authority, context: context)
      }
    case .own(let head):
      state = .refused
      answerOwn(head, context: context)
    default:
      break
    }
  }

  /// The `400` body of an absolute-form target the proxy does not take: another scheme than
  /// `http` (HTTPS goes through `CONNECT`), or a host that is none (``HostName``).
  static func absoluteFormProblem(_ target: RequestTarget) -> String {
    guard target.scheme == "http" else {
      return
        "tagscope proxy: absolute-form requests must be http://host[:port]/… (HTTPS goes through CONNECT)\n"
    }
    return "tagscope proxy: bad request target: \(target.hostProblem?.description ?? "no host")\n"
  }

  // MARK: CONNECT

  /// `200`, then TLS as `authority` with its minted leaf, then HTTP.
  private func intercept(_ authority: Authority, context: ChannelHandlerContext) {
    let tls: NIOSSLContext
    do { tls = try proxy.interceptionTLS(for: authority.host) } catch {
      state = .refused
      proxy.report("no certificate for \(authority.host): \(error)")
      respond(.internalServerError, "cannot mint a certificate for \(authority.host)", context: context)
      return
    }
    switchProtocols(context: context) { operations, front in
      let ssl = NIOSSLServerHandler(context: tls)
      let handshake = HandshakeDeadline(host: authority.host, proxy: self.proxy)
      let raggedEnd = RaggedTLSEnd()
      try operations.addHandler(ssl, position: .after(front))
      try operations.addHandler(handshake, position: .after(ssl))
      try operations.addHandler(raggedEnd, position: .after(handshake))
      try self.installHTTP(
        host: authority.host, port: authority.port, secure: true, decodes: true, context: context,
        after: raggedEnd)
    }
  }

  /// Connects to `authority`, then relays bytes both ways.
  private func tunnel(_ authority: Authority, context: ChannelHandlerContext) {
    state = .switching(pending: [])
    context.channel.setOption(.autoRead, value: false).whenComplete { _ in }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    UpstreamConnector.tunnel(
      host: authority.host, port: authority.port, proxy: proxy, eventLoop: context.eventLoop
    )
    .whenComplete { result in
      let (handler, context) = loopBound.value
      switch result {
      case .success(let upstream):
        handler.glue(upstream, context: context)
      case .failure(let error):
        handler.state = .refused
        if let refusal = UpstreamRefusal.of(error) {
          handler.respond(.forbidden, "tagscope proxy: \(refusal)\n", context: context)
        } else {
          handler.proxy.server.statistics.update { $0.upstreamFailures += 1 }
          handler.respond(
            .badGateway,
            "cannot reach \(authority.host):\(authority.port): \(SystemErrorWords.reason(error))",
            context: context)
        }
        context.channel.setOption(.autoRead, value: true).whenComplete { _ in }
      }
    }
  }

  private func glue(_ upstream: any Channel, context: ChannelHandlerContext) {
    proxy.server.statistics.update { $0.tunnels += 1 }
    let (local, remote) = TunnelGlue.pair()
    do {
      try upstream.pipeline.syncOperations.addHandler(remote)
    } catch {
      upstream.close(promise: nil)
      context.close(promise: nil)
      return
    }
    switchProtocols(context: context) { operations, front in
      try operations.addHandler(local, position: .after(front))
    }
    context.channel.setOption(.autoRead, value: true).whenComplete { _ in }
    upstream.setOption(.autoRead, value: true).whenComplete { _ in }
  }

  /// Takes the HTTP codec out (keeping what it had read past the request), writes the raw
  /// `200 Connection Established`, installs what follows with `install`, and hands the kept bytes
  /// to it.
  private func switchProtocols(
    context: ChannelHandlerContext,
    install: (ChannelPipeline.SynchronousOperations, ProxyFrontHandler) throws -> Void
  ) {
    if case .switching = state {} else { state = .switching(pending: []) }
    let operations = context.pipeline.syncOperations
    operations.removeHandler(decoder, promise: nil)
    operations.removeHandler(encoder, promise: nil)
    operations.removeHandler(chunkGuard, promise: nil)
    context.writeAndFlush(
      NIOAny(context.channel.allocator.buffer(string: "HTTP/1.1 200 Connection Established\r\n\r\n")),
      promise: nil)
    do { try install(operations, self) } catch {
      context.close(promise: nil)
      return
    }
    guard case .switching(let kept) = state else { return }
    // Bytes read while the kept ones are passed on join the end of the queue, in order.
    while case .switching(var pending) = state, !pending.isEmpty {
      let bytes = pending.removeFirst()
      state = .switching(pending: pending)
      context.fireChannelRead(bytes)
    }
    state = .handedOver
    if !kept.isEmpty { context.fireChannelReadComplete() }
    if inputClosed { context.fireUserInboundEventTriggered(ChannelEvent.inputClosed) }
    operations.removeHandler(context: context, promise: nil)
  }

  /// HTTP handlers for requests to `host`: inside TLS, `listen`'s own (`--no-forward`) or the
  /// forwarder; on plain HTTP, the forwarder. With `after`, a new HTTP codec first (inside TLS),
  /// else the one in place reads on.
  private func installHTTP(
    host: String, port: Int, secure: Bool, decodes: Bool, context: ChannelHandlerContext,
    after: (any ChannelHandler)? = nil
  ) throws {
    let server = proxy.server
    var handlers: [any ChannelHandler] = []
    if after != nil {
      handlers += [
        HTTPResponseEncoder(), ChunkSizeGuard(limit: server.configuration.maximumBodyBytes),
        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
      ]
    }
    handlers.append(HTTPServerPipelineHandler())
    if secure && decodes && !proxy.configuration.forward {
      // Inside TLS every request is for the `CONNECT` host: `listen` answers them all.
      handlers += LocalLane.handlers(server: server).handlers
    } else {
      // Plain HTTP names its host in each request: the forwarder routes each by its own target,
      // handing those `listen` answers (`--no-forward`) to a ``LocalLane`` it adds.
      handlers.append(
        ForwardingHandler(proxy: proxy, host: host, port: port, secure: secure, decodes: decodes))
    }
    let position: ChannelPipeline.SynchronousOperations.Position = .after(after ?? self)
    try context.pipeline.syncOperations.addHandlers(handlers, position: position)
  }

  // MARK: The proxy's own pages

  private func answerOwn(_ head: HTTPRequestHead, context: ChannelHandlerContext) {
    let path = RequestTarget(head.uri).path
    switch path {
    case "/ca.pem", "/ca.crt":
      respond(
        .ok, proxy.authority.certificatePEM, contentType: "application/x-x509-ca-cert", to: head,
        context: context)
    case "/":
      respond(
        .ok,
        "tagscope proxy. Install its CA on a device from http://THIS-HOST:PORT/ca.pem (this proxy's address), then set this host as the device's HTTP proxy: `tagscope proxy ca` says how.\n",
        to: head, context: context)
    default:
      respond(.notFound, "Not found", to: head, context: context)
    }
  }

  /// Answers `request` (a `GET` when unknown) with `body` through ``ReplyWriter``, as `listen`
  /// answers (headers alone to a `HEAD`), then closes.
  private func respond(
    _ status: HTTPResponseStatus, _ body: String, contentType: String = "text/plain; charset=utf-8",
    extraHeaders: [(String, String)] = [], to request: HTTPRequestHead? = nil, context: ChannelHandlerContext
  ) {
    let reply = SDKReply(status: status, contentType: contentType, body: body)
    var headers = ReplyWriter.headers(of: reply)
    headers.add(contentsOf: extraHeaders)
    headers.add(name: "Connection", value: "close")
    let answered = request ?? HTTPRequestHead(version: .http1_1, method: .GET, uri: "/")
    ReplyWriter.write(reply, headers: headers, request: answered, close: true, context: context)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if case .waiting = state, error is HTTPParserError {
      state = .refused
      respond(.badRequest, "Bad request", context: context)
      return
    }
    context.close(promise: nil)
  }
}
