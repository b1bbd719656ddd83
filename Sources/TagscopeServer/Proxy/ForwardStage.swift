import NIOCore
import NIOHTTP1

/// The proxy's final stage of the SDK request pipeline: forwards a request, once admitted,
/// collected and its records stored, to the vendor over one upstream connection kept for the
/// client's, and relays the vendor's answer; an upstream that fails, closes before answering or
/// does not answer in time becomes the proxy's own `502`, `403` or `504`.
final class ForwardStage {
  /// One request forwarded and its answer on the way back.
  private struct Exchange {
    var request: HTTPRequestHead
    /// The vendor's answer has come whole.
    var upstreamEnded = false
    var status: HTTPResponseStatus?
    var excerpt: [UInt8] = []
    var closeAfter: Bool
    var deadline: Scheduled<Void>?
    /// Where its records learn the answer (a decoded SDK request).
    var wire: WireExchange?
  }

  /// Opens the upstream connection of a request forwarded to `host`:`port`, its answer read by
  /// `relay` (``UpstreamConnector/http(host:port:secure:proxy:eventLoop:relay:)``; another for
  /// tests of the forward stage).
  typealias Connect = (
    _ host: String, _ port: Int, _ secure: Bool, _ eventLoop: any EventLoop, _ relay: UpstreamRelay
  ) -> EventLoopFuture<any Channel>

  let proxy: ProxyContext
  let secure: Bool
  private let connect: Connect
  /// Where requests are forwarded: the `CONNECT` host, or the host a plain-HTTP request names.
  var host: String
  var port: Int
  /// Whether requests are decoded into records (an SDK host) or only forwarded (plain HTTP to any
  /// other host).
  var decodes: Bool
  /// The ``LocalLane`` once a request was handed to it.
  var localLane: LocalLane.Gate?
  private var exchange: Exchange?
  /// The vendor exchange of the request taken in, until it is forwarded (``wireExchange()``).
  var pendingWire: WireExchange?
  private var upstream: (any Channel)?
  /// Counts upstream connections: callbacks of one given up on (closed for another host, timed
  /// out) are ignored.
  private var generation = 0
  /// The pipeline whose requests are forwarded.
  weak var pipeline: RequestPipeline<ForwardStage>?

  init(
    proxy: ProxyContext, host: String, port: Int, secure: Bool, decodes: Bool, connect: Connect? = nil
  ) {
    self.proxy = proxy
    self.host = host
    self.port = port
    self.secure = secure
    self.decodes = decodes
    self.connect =
      connect ?? { host, port, secure, eventLoop, relay in
        UpstreamConnector.http(
          host: host, port: port, secure: secure, proxy: proxy, eventLoop: eventLoop, relay: relay)
      }
  }

  /// The client ended its side (or failed) while a request is forwarded: the connection closes
  /// once its answer is relayed.
  func closeAfterAnswer() { exchange?.closeAfter = true }

  /// Closes the upstream connection and ignores what it still says.
  func drop() {
    generation += 1
    upstream?.close(promise: nil)
    upstream = nil
  }

  /// The client's connection is gone: the exchange under way is given up, its upstream closed.
  func end() {
    exchange?.deadline?.cancel()
    exchange = nil
    drop()
  }

  /// Forwards the request `head` with `body` to ``host``:``port``, over the upstream connection
  /// kept for the client's, and relays the answer on `context`; with `closeAfter`, the client's
  /// connection closes after the answer.
  func forward(head: HTTPRequestHead, body: ByteBuffer, closeAfter: Bool, context: ChannelHandlerContext) {
    exchange = Exchange(request: head, closeAfter: !head.isKeepAlive || closeAfter, wire: pendingWire)
    pendingWire = nil
    var outgoing = head
    outgoing.uri = RequestTarget(head.uri).originForm
    for name in ["proxy-connection", "proxy-authorization", "expect"] { outgoing.headers.remove(name: name) }
    if !secure || outgoing.headers.first(name: "host") == nil {
      // In absolute form the target names the host, not the Host header (RFC 9112 §3.2.2).
      let name = host.contains(":") ? "[\(host)]" : host
      outgoing.headers.replaceOrAdd(
        name: "Host", value: port == (secure ? 443 : 80) ? name : "\(name):\(port)")
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
    let connecting = connect(host, port, secure, context.eventLoop, relay)
    connecting.whenComplete { result in
      let (handler, context) = loopBound.value
      switch result {
      case .success(let channel) where handler.generation == generation:
        handler.upstream = channel
        send(channel)
      case .success(let channel):
        channel.close(promise: nil)
      case .failure(let error):
        if let refusal = UpstreamRefusal.of(error) {
          handler.upstreamFailed(refusal.description, status: .forbidden, context: context)
        } else {
          handler.upstreamFailed(
            "\(handler.host):\(handler.port) unreachable: \(SystemErrorWords.reason(error))", context: context
          )
        }
      }
    }
  }

  private func armUpstreamDeadline(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    exchange?.deadline = context.eventLoop.scheduleTask(in: proxy.configuration.upstreamTimeout) {
      let (handler, context) = loopBound.value
      handler.proxy.server.statistics.timeout(.upstream)
      handler.drop()
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
      var headers = head.headers
      if exchange?.request.method == .HEAD {
        // An answer to HEAD has no body whatever its framing says; passed on chunked (or without
        // a length, which the encoder makes chunked), its empty last chunk would be written and
        // read by a kept-alive client as the start of the next response.
        headers.remove(name: "transfer-encoding")
        if !headers.contains(name: "content-length") { headers.add(name: "Content-Length", value: "0") }
      }
      relay(
        .head(HTTPResponseHead(version: head.version, status: head.status, headers: headers)),
        context: context)
    case .body(let chunk):
      if let count = exchange?.excerpt.count, count < 512 {
        exchange?.excerpt += chunk.readableBytesView.prefix(512 - count)
      }
      relay(.body(.byteBuffer(chunk)), context: context)
    case .end(let trailers):
      exchange?.upstreamEnded = true
      relay(.end(trailers), context: context)
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
    report(message)
    let body = "tagscope proxy: \(message)\n"
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "text/plain; charset=utf-8")
    headers.add(name: "Content-Length", value: String(body.utf8.count))
    headers.add(name: "Connection", value: "close")
    exchange?.status = status
    relay(
      .head(HTTPResponseHead(version: current.request.version, status: status, headers: headers)),
      context: context)
    if current.request.method != .HEAD {
      relay(.body(.byteBuffer(context.channel.allocator.buffer(string: body))), context: context)
    }
    relay(.end(nil), context: context)
  }

  /// Relays one part of the answer to the client.
  private func relay(_ part: HTTPServerResponsePart, context: ChannelHandlerContext) {
    guard let current = exchange else { return }
    guard case .end = part else {
      context.writeAndFlush(NIOAny(part), promise: nil)
      return
    }
    // The exchange ends before its end is written: writing it hands on a request pipelined
    // behind (``HTTPServerPipelineHandler``), which must find the handler idle (or closing).
    exchange = nil
    if let status = current.status { current.wire?.answered(status: Int(status.code)) }
    pipeline?.finalAnswerEnding(closeAfter: current.closeAfter)
    context.writeAndFlush(NIOAny(part), promise: nil)
    if decodes, let status = current.status, status.code >= 400 {
      let target = RequestTarget(current.request.uri)
      let excerpt = String(decoding: current.excerpt, as: UTF8.self)
      report(
        "\(host) answered \(status.code) to \(current.request.method.rawValue) \(target.path): \(excerpt)")
    }
    pipeline?.finalAnswerEnded(closeAfter: current.closeAfter, context: context)
  }
}
