import Dispatch
import NIOCore
import NIOHTTP1
import TagscopeTimeline

/// The client side of an intercepted connection (decrypted after `CONNECT`, or plain HTTP in
/// absolute form): takes one request at a time, decodes it with `listen`'s endpoint decoders when
/// the host is an SDK's (records for the session), forwards it unchanged to the vendor over one
/// upstream connection kept for the client's, and relays the vendor's answer once the records are
/// stored (with `--record`, written and fsynced: an answer the client saw means its events are in
/// the recording).
final class ForwardingHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let proxy: ProxyContext
  private var host: String
  private var port: Int
  private let secure: Bool
  /// Whether requests are decoded into records (an SDK host) or only forwarded (plain HTTP to any
  /// other host).
  private var decodes: Bool
  private var peerHost = "unknown"
  private var collecting: (head: HTTPRequestHead, body: ByteBuffer)?
  private var exchange: Exchange?
  private var upstream: (any Channel)?
  /// Counts upstream connections: callbacks of one given up on (closed for another host, timed
  /// out) are ignored.
  private var generation = 0
  private var requestDeadline: Scheduled<Void>?
  private var discarding = false

  /// One request forwarded and its answer on the way back.
  private struct Exchange {
    var request: HTTPRequestHead
    /// The request's records are stored (or there were none): answers may go out.
    var stored: Bool
    /// Answer parts held until `stored`.
    var held: [HTTPServerResponsePart] = []
    /// The vendor's answer has come whole.
    var upstreamEnded = false
    var status: HTTPResponseStatus?
    var excerpt: [UInt8] = []
    var closeAfter: Bool
    var deadline: Scheduled<Void>?
  }

  init(proxy: ProxyContext, host: String, port: Int, secure: Bool, decodes: Bool) {
    self.proxy = proxy
    self.host = host
    self.port = port
    self.secure = secure
    self.decodes = decodes
  }

  func handlerAdded(context: ChannelHandlerContext) {
    peerHost = context.channel.remoteAddress?.ipAddress ?? "unknown"
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      retarget(RequestTarget(head.uri))
      discarding = false
      // A declared length past the limit (or not a number) is refused at once, as listen refuses
      // it, rather than waited for until the request timeout.
      if let declared = head.headers.first(name: "content-length"),
        Int(declared).map({ $0 < 0 || $0 > proxy.server.configuration.maximumBodyBytes }) ?? true
      {
        discarding = true
        answerLocally(
          .payloadTooLarge, "Request body too large for the proxy", version: head.version, close: true,
          context: context)
        return
      }
      collecting = (head, context.channel.allocator.buffer(capacity: 0))
      armRequestDeadline(context: context)
    case .body(var chunk):
      guard var current = collecting else { return }
      collecting = nil
      current.body.writeBuffer(&chunk)
      if current.body.readableBytes > proxy.server.configuration.maximumBodyBytes {
        discarding = true
        answerLocally(
          .payloadTooLarge, "Request body too large for the proxy", version: current.head.version,
          close: true,
          context: context)
        return
      }
      collecting = current
    case .end:
      requestDeadline?.cancel()
      requestDeadline = nil
      guard let (head, body) = collecting, !discarding else { return }
      collecting = nil
      take(head: head, body: body, context: context)
    }
  }

  /// Plain HTTP through a proxy names its host in each request: one for another host moves the
  /// connection there.
  private func retarget(_ target: RequestTarget) {
    guard !secure, let newHost = target.host, let newPort = target.port, newHost != host || newPort != port
    else { return }
    dropUpstream()
    host = newHost
    port = newPort
    decodes = proxy.configuration.hosts.contains(newHost)
  }

  /// Decodes (off the event loop when large), delivers, then forwards.
  private func take(head: HTTPRequestHead, body: ByteBuffer, context: ChannelHandlerContext) {
    guard decodes else {
      forward(head: head, body: body, stored: true, context: context)
      return
    }
    guard proxy.server.ingest.hasRoom else {
      // The session is behind: the SDK retries later, as `listen` tells it; nothing is forwarded,
      // so the vendor never gets what the recording lacks.
      proxy.server.statistics.update { $0.busyReplies += 1 }
      answerLocally(
        .serviceUnavailable, "tagscope proxy: busy, retry", version: head.version, retryAfter: 1,
        close: !head.isKeepAlive, context: context)
      return
    }
    let (proxy, host, peerHost) = (self.proxy, self.host, self.peerHost)
    guard body.readableBytes >= HTTPIngestHandler.offloadBytes else {
      proxy.server.statistics.update { $0.proxiedRequests += 1 }
      let events = Self.decode(head: head, body: body, host: host, proxy: proxy)
      forward(head: head, body: body, stored: events.isEmpty, context: context)
      if !events.isEmpty {
        proxy.server.deliver(events, address: peerHost)
        whenStored(context: context)
      }
      return
    }
    // Large bodies queue for the one parsing thread within listen's byte budget: past it, the
    // SDK is told to retry, as listen tells it.
    let bytes = body.readableBytes
    guard proxy.server.offload.reserve(bytes) else {
      proxy.server.statistics.update { $0.busyReplies += 1 }
      answerLocally(
        .serviceUnavailable, "tagscope proxy: busy, retry", version: head.version, retryAfter: 1,
        close: !head.isKeepAlive, context: context)
      return
    }
    proxy.server.statistics.update {
      $0.proxiedRequests += 1
      $0.offloadedBodies += 1
    }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    HTTPIngestHandler.parser.async {
      let events = Self.decode(head: head, body: body, host: host, proxy: proxy)
      BulkDelivery.deliver(events, address: peerHost, server: proxy.server)
      proxy.server.offload.release(bytes)
      eventLoop.execute {
        let (handler, context) = loopBound.value
        handler.forward(head: head, body: body, stored: events.isEmpty, context: context)
        if !events.isEmpty { handler.whenStored(context: context) }
      }
    }
  }

  /// The events `listen`'s decoder for this path finds in the request (none for a path it does
  /// not decode: settings, remote configuration, anything else of the vendor's).
  private static func decode(head: HTTPRequestHead, body: ByteBuffer, host: String, proxy: ProxyContext)
    -> [IngestedEvent]
  {
    let target = RequestTarget(head.uri)
    guard
      case .endpoint(let endpoint) = EndpointRouter.route(
        method: head.method, path: target.path, query: target.query, host: host)
    else { return [] }
    let limit = min(proxy.server.configuration.maximumBodyBytes, endpoint.bodyLimit)
    switch BodyDecompression.decode(head: head, body: body, limit: limit) {
    case .decoded(let bytes):
      let request = ReceivedRequest(
        method: head.method, path: target.path, query: target.query, headers: head.headers, body: bytes,
        peerHost: "")
      let reply = endpoint.handle(request)
      if let rejection = reply.rejection, reply.events.isEmpty {
        proxy.report(
          "\(host) \(head.method.rawValue) \(target.path): not decoded (\(rejection.rawValue)), forwarded as it was"
        )
      }
      return reply.events
    case .unsupported(let encoding):
      proxy.report("\(host) \(target.path): Content-Encoding \(encoding) not decoded, forwarded as it was")
      return []
    case .failed:
      proxy.report("\(host) \(target.path): body does not decompress, forwarded as it was")
      return []
    }
  }

  private func whenStored(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    proxy.server.ingest.whenStored {
      eventLoop.execute {
        let (handler, context) = loopBound.value
        handler.exchange?.stored = true
        handler.releaseHeld(context: context)
      }
    }
  }

  // MARK: Forwarding

  private func forward(head: HTTPRequestHead, body: ByteBuffer, stored: Bool, context: ChannelHandlerContext)
  {
    exchange = Exchange(request: head, stored: stored, closeAfter: !head.isKeepAlive)
    var outgoing = head
    outgoing.uri = RequestTarget(head.uri).originForm
    for name in ["proxy-connection", "proxy-authorization"] { outgoing.headers.remove(name: name) }
    if outgoing.headers.first(name: "host") == nil {
      outgoing.headers.add(name: "Host", value: port == (secure ? 443 : 80) ? host : "\(host):\(port)")
    }
    let request = outgoing
    let send: @Sendable (any Channel) -> Void = { channel in
      channel.write(HTTPClientRequestPart.head(request), promise: nil)
      if body.readableBytes > 0 { channel.write(HTTPClientRequestPart.body(.byteBuffer(body)), promise: nil) }
      channel.writeAndFlush(HTTPClientRequestPart.end(nil), promise: nil)
    }
    armUpstreamDeadline(context: context)
    if let upstream, upstream.isActive {
      send(upstream)
      return
    }
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    generation += 1
    let generation = self.generation
    let relay = UpstreamRelay(
      onPart: { part, _ in
        let (handler, context) = loopBound.value
        guard handler.generation == generation else { return }
        handler.upstreamPart(part, context: context)
      },
      onClose: { _ in
        let (handler, context) = loopBound.value
        guard handler.generation == generation else { return }
        handler.upstreamClosed(context: context)
      })
    let connecting = UpstreamConnector.http(
      host: host, port: port, secure: secure, proxy: proxy, eventLoop: context.eventLoop,
      relay: relay)
    connecting.whenComplete { result in
      let (handler, context) = loopBound.value
      switch result {
      case .success(let channel) where handler.generation == generation:
        handler.upstream = channel
        send(channel)
      case .success(let channel):
        channel.close(promise: nil)
      case .failure(let error):
        handler.upstreamFailed("\(handler.host):\(handler.port) unreachable (\(error))", context: context)
      }
    }
  }

  private func armUpstreamDeadline(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    exchange?.deadline = context.eventLoop.scheduleTask(in: proxy.configuration.upstreamTimeout) {
      let (handler, context) = loopBound.value
      handler.proxy.server.statistics.timeout(.upstream)
      handler.dropUpstream()
      handler.upstreamFailed(
        "\(handler.host) did not answer within \(handler.proxy.configuration.upstreamTimeout.nanoseconds / 1_000_000_000) s",
        status: .gatewayTimeout, context: context)
    }
  }

  private func upstreamPart(_ part: HTTPClientResponsePart, context: ChannelHandlerContext) {
    guard exchange != nil else { return }
    switch part {
    case .head(let head):
      exchange?.deadline?.cancel()
      exchange?.deadline = nil
      if head.status == .continue { return }
      exchange?.status = head.status
      if !head.isKeepAlive { exchange?.closeAfter = true }
      hold(
        .head(HTTPResponseHead(version: head.version, status: head.status, headers: head.headers)),
        context: context)
    case .body(let chunk):
      if let count = exchange?.excerpt.count, count < 512 {
        exchange?.excerpt += chunk.readableBytesView.prefix(512 - count)
      }
      hold(.body(.byteBuffer(chunk)), context: context)
    case .end(let trailers):
      exchange?.upstreamEnded = true
      hold(.end(trailers), context: context)
    }
  }

  /// The upstream connection closed: an answer not yet begun becomes a `502`.
  private func upstreamClosed(context: ChannelHandlerContext) {
    upstream = nil
    guard let current = exchange, !current.upstreamEnded, current.status == nil else {
      if let current = exchange, current.status != nil, !current.upstreamEnded {
        // Closed mid-answer: the client cannot get the rest.
        context.close(promise: nil)
      }
      return
    }
    upstreamFailed("\(host) closed the connection before answering", context: context)
  }

  private func upstreamFailed(
    _ message: String, status: HTTPResponseStatus = .badGateway, context: ChannelHandlerContext
  ) {
    guard var current = exchange, current.status == nil else { return }
    current.deadline?.cancel()
    current.deadline = nil
    current.closeAfter = true
    exchange = current
    proxy.server.statistics.update { $0.upstreamFailures += 1 }
    proxy.report(TerminalText.sanitizeLines(message))
    let body = "tagscope proxy: \(message)\n"
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.utf8.count))
    headers.add(name: "Connection", value: "close")
    exchange?.status = status
    hold(
      .head(HTTPResponseHead(version: current.request.version, status: status, headers: headers)),
      context: context)
    hold(.body(.byteBuffer(context.channel.allocator.buffer(string: body))), context: context)
    hold(.end(nil), context: context)
  }

  /// Writes `part` now, or keeps it until the request's records are stored.
  private func hold(_ part: HTTPServerResponsePart, context: ChannelHandlerContext) {
    exchange?.held.append(part)
    releaseHeld(context: context)
  }

  private func releaseHeld(context: ChannelHandlerContext) {
    guard var current = exchange, current.stored, !current.held.isEmpty else { return }
    let parts = current.held
    current.held = []
    exchange = current
    for part in parts {
      if case .end = part {
        context.writeAndFlush(wrapOutboundOut(part), promise: nil)
        finishExchange(context: context)
        return
      }
      context.write(wrapOutboundOut(part), promise: nil)
    }
    context.flush()
  }

  private func finishExchange(context: ChannelHandlerContext) {
    guard let current = exchange else { return }
    exchange = nil
    if decodes, let status = current.status, status.code >= 400 {
      let target = RequestTarget(current.request.uri)
      let excerpt = String(decoding: current.excerpt, as: UTF8.self)
      proxy.report(
        TerminalText.sanitizeLines(
          "\(host) answered \(status.code) to \(current.request.method.rawValue) \(target.path): \(excerpt)"))
    }
    if current.closeAfter {
      context.close(promise: nil)
    }
  }

  /// A reply from the proxy itself (busy, too large, too slow), written at once.
  private func answerLocally(
    _ status: HTTPResponseStatus, _ message: String, version: HTTPVersion, retryAfter: Int? = nil,
    close: Bool,
    context: ChannelHandlerContext
  ) {
    var headers = HTTPHeaders()
    if let retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(message.utf8.count))
    if close { headers.add(name: "Connection", value: "close") }
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: version, status: status, headers: headers))),
      promise: nil)
    context.write(
      wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: message)))), promise: nil)
    let written = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: written)
    if close {
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
    }
  }

  private func armRequestDeadline(context: ChannelHandlerContext) {
    requestDeadline?.cancel()
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    requestDeadline = context.eventLoop.scheduleTask(in: proxy.server.configuration.requestTimeout) {
      let (handler, context) = loopBound.value
      handler.proxy.server.statistics.timeout(.request)
      handler.discarding = true
      handler.answerLocally(
        .requestTimeout, "Request timeout", version: handler.collecting?.head.version ?? .http1_1,
        close: true,
        context: context)
    }
  }

  /// Closes the upstream connection and ignores what it still says.
  private func dropUpstream() {
    generation += 1
    upstream?.close(promise: nil)
    upstream = nil
  }

  func channelInactive(context: ChannelHandlerContext) {
    requestDeadline?.cancel()
    exchange?.deadline?.cancel()
    exchange = nil
    dropUpstream()
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
