import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A plain-HTTP stand-in for any host behind the proxy: keeps each request's `Host` header and
/// target as it arrived and answers `200 vendor PATH` (or another status), keeping the connection
/// alive.
final class PlainVendorServer: @unchecked Sendable {
  let port: Int
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup
  private let lock = NSLock()
  private var stored: [(host: String, target: String)] = []

  private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup) {
    self.port = port
    self.channel = channel
    self.group = group
  }

  /// The requests received so far, in order.
  var requests: [(host: String, target: String)] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  fileprivate func receive(host: String, target: String) {
    lock.lock()
    stored.append((host, target))
    lock.unlock()
  }

  /// Starts on a free loopback port, answering every request with `status`.
  static func start(status: HTTPResponseStatus = .ok) async throws -> PlainVendorServer {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let box = PlainVendorBox(status: status)
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(PlainVendorHandler(box: box))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    let server = PlainVendorServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group)
    box.server = server
    return server
  }

  func shutdown() async {
    try? await channel.close()
    try? await group.shutdownGracefully()
  }
}

/// Lets handlers made before the server exists reach it.
private final class PlainVendorBox: @unchecked Sendable {
  weak var server: PlainVendorServer?
  let status: HTTPResponseStatus

  init(status: HTTPResponseStatus) { self.status = status }
}

private final class PlainVendorHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let box: PlainVendorBox
  private var head: HTTPRequestHead?

  init(box: PlainVendorBox) { self.box = box }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head): self.head = head
    case .body: break
    case .end:
      guard let head else { return }
      box.server?.receive(host: head.headers.first(name: "host") ?? "", target: head.uri)
      let body = "vendor \(head.uri)"
      var headers = HTTPHeaders()
      headers.add(name: "Content-Length", value: String(body.utf8.count))
      headers.add(name: "Content-Type", value: "text/plain")
      context.write(
        wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: box.status, headers: headers))),
        promise: nil)
      context.write(
        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: body)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}
