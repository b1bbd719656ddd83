import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOTLS

/// One kept-alive HTTPS connection of the proxy benchmark, as an SDK opens it: straight to the
/// server, or through an HTTP proxy (`CONNECT host:443`, then TLS inside the tunnel). It sends one
/// fixed request at a time and times each from its write to its answer's end.
struct BenchHTTPSConnection {
  /// The channel; requests are run on it with ``run(_:)``.
  let channel: any Channel

  /// Opens a connection to `port` on loopback, through `CONNECT host:443` first when `tunnelled`,
  /// then TLS for `host` verified with `tls`; `request` is what ``run(_:)`` sends.
  static func open(
    group: any EventLoopGroup, port: Int, host: String, tunnelled: Bool, tls: NIOSSLContext,
    request: BenchRequest
  ) throws -> BenchHTTPSConnection {
    let ready = group.any().makePromise(of: Void.self)
    let channel = try ClientBootstrap(group: group)
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let operations = channel.pipeline.syncOperations
          if tunnelled {
            try operations.addHandler(
              ConnectHandshake(host: host, tls: tls, request: request, ready: ready))
          } else {
            try Self.addHTTPS(to: operations, host: host, tls: tls, request: request, ready: ready)
          }
        }
      }
      .connect(host: "127.0.0.1", port: port).wait()
    try ready.futureResult.wait()
    return BenchHTTPSConnection(channel: channel)
  }

  /// TLS, the HTTP client codec and the request runner, after `position`.
  static func addHTTPS(
    to operations: ChannelPipeline.SynchronousOperations, host: String, tls: NIOSSLContext,
    request: BenchRequest, ready: EventLoopPromise<Void>,
    position: ChannelPipeline.SynchronousOperations.Position = .last
  ) throws {
    let ssl = try NIOSSLClientHandler(context: tls, serverHostname: host)
    let handshake = HandshakeWaiter(ready: ready)
    try operations.addHandler(ssl, position: position)
    try operations.addHandler(handshake, position: .after(ssl))
    let encoder = HTTPRequestEncoder()
    let decoder = ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes))
    try operations.addHandlers([encoder, decoder], position: .after(handshake))
    try operations.addHandler(RequestRunner(request: request), position: .after(decoder))
  }

  /// Sends the request `count` times, one after the other; the future holds each one's time, in
  /// nanoseconds, from the request's write to the end of its `2xx` answer.
  func run(_ count: Int) -> EventLoopFuture<[UInt64]> {
    let promise = channel.eventLoop.makePromise(of: [UInt64].self)
    channel.triggerUserOutboundEvent(RequestRunner.Run(count: count, done: promise), promise: nil)
    return promise.futureResult
  }

  /// Closes the connection.
  func close() { try? channel.close().wait() }
}

/// The request a benchmark connection sends: its head and body.
struct BenchRequest: Sendable {
  var head: HTTPRequestHead
  var body: [UInt8]
}

/// Writes `CONNECT host:443`, waits for the proxy's `200`, then puts TLS and HTTP in its place.
private final class ConnectHandshake: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  private let host: String
  private let tls: NIOSSLContext
  private let request: BenchRequest
  private let ready: EventLoopPromise<Void>
  private var answer: [UInt8] = []

  init(host: String, tls: NIOSSLContext, request: BenchRequest, ready: EventLoopPromise<Void>) {
    self.host = host
    self.tls = tls
    self.request = request
    self.ready = ready
  }

  func channelActive(context: ChannelHandlerContext) {
    let connect = "CONNECT \(host):443 HTTP/1.1\r\nHost: \(host):443\r\nUser-Agent: tagscope-bench\r\n\r\n"
    context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: connect)), promise: nil)
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    answer += unwrapInboundIn(data).readableBytesView
    guard let end = answer.firstRange(of: Array("\r\n\r\n".utf8)) else { return }
    let statusLine = String(decoding: answer.prefix { $0 != 0x0D }, as: UTF8.self)
    guard statusLine.hasPrefix("HTTP/1.1 200"), end.upperBound == answer.count else {
      ready.fail(BenchFailure("CONNECT \(host) answered \(statusLine)"))
      context.close(promise: nil)
      return
    }
    do {
      let operations = context.pipeline.syncOperations
      try BenchHTTPSConnection.addHTTPS(
        to: operations, host: host, tls: tls, request: request, ready: ready, position: .after(self))
      operations.removeHandler(context: context, promise: nil)
    } catch {
      ready.fail(error)
      context.close(promise: nil)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    ready.fail(error)
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    ready.fail(BenchFailure("the proxy closed the connection after CONNECT \(host)"))
    context.fireChannelInactive()
  }
}

/// Completes `ready` once the TLS handshake is done (fails it when the handshake fails).
private final class HandshakeWaiter: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  private let ready: EventLoopPromise<Void>

  init(ready: EventLoopPromise<Void>) { self.ready = ready }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent { ready.succeed(()) }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    ready.fail(error)
    context.fireErrorCaught(error)
  }
}

/// Sends the request once per ``Run`` count, each after the previous answer's end, timing each.
private final class RequestRunner: ChannelDuplexHandler {
  typealias InboundIn = HTTPClientResponsePart
  typealias OutboundIn = HTTPClientRequestPart
  typealias OutboundOut = HTTPClientRequestPart

  /// Sends the request `count` times; `done` gets the times.
  struct Run: Sendable {
    let count: Int
    let done: EventLoopPromise<[UInt64]>
  }

  private let request: BenchRequest
  private var run: Run?
  private var times: [UInt64] = []
  private var sentAt: UInt64 = 0
  private var status: HTTPResponseStatus = .ok

  init(request: BenchRequest) { self.request = request }

  func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?)
  {
    guard let run = event as? Run else {
      context.triggerUserOutboundEvent(event, promise: promise)
      return
    }
    promise?.succeed(())
    guard self.run == nil else {
      run.done.fail(BenchFailure("a run is already going on this connection"))
      return
    }
    self.run = run
    times = []
    times.reserveCapacity(run.count)
    sendNext(context: context)
  }

  private func sendNext(context: ChannelHandlerContext) {
    guard let current = run else { return }
    guard times.count < current.count else {
      run = nil
      current.done.succeed(times)
      return
    }
    sentAt = DispatchTime.now().uptimeNanoseconds
    context.write(wrapOutboundOut(.head(request.head)), promise: nil)
    context.write(
      wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(bytes: request.body)))), promise: nil
    )
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): status = head.status
    case .body: break
    case .end:
      guard let run else { return }
      // 200 for Segment's batches, 204 for Firebase's uploads; anything else fails the run.
      guard status.code / 100 == 2 else {
        self.run = nil
        run.done.fail(BenchFailure("answered \(status.code)"))
        return
      }
      times.append(DispatchTime.now().uptimeNanoseconds - sentAt)
      sendNext(context: context)
    }
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    fail(BenchFailure("connection failed: \(error)"))
    context.close(promise: nil)
  }

  func channelInactive(context: ChannelHandlerContext) {
    fail(BenchFailure("connection closed after \(times.count) answers"))
    context.fireChannelInactive()
  }

  private func fail(_ failure: BenchFailure) {
    guard let run else { return }
    self.run = nil
    run.done.fail(failure)
  }
}
