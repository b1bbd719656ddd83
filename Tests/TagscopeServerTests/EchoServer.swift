import NIOCore
import NIOPosix

/// A TCP server that sends back every byte it gets (a tunnelled host for the proxy tests), or one
/// fixed answer (``start(answer:)``). With
/// `farewell`, when the client ends its side it also says how much it read and then closes: it
/// answers only if the half-close reached it as a half-close.
final class EchoServer: Sendable {
  let port: Int
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup

  private init(port: Int, channel: any Channel, group: MultiThreadedEventLoopGroup) {
    self.port = port
    self.channel = channel
    self.group = group
  }

  static func start(farewell: Bool = false) async throws -> EchoServer {
    try await start(allowHalfClosure: farewell) { Echo(farewell: farewell) }
  }

  /// A server that answers whatever comes first on a connection with `answer`, as it is (an HTTP
  /// "vendor" whose framing the proxy must not trust), then closes.
  static func start(answer: String) async throws -> EchoServer {
    try await start(allowHalfClosure: false) { Answer(answer) }
  }

  private static func start(
    allowHalfClosure: Bool, handler: @escaping @Sendable () -> any ChannelHandler
  ) async throws -> EchoServer {
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 1024)
      .childChannelOption(.allowRemoteHalfClosure, value: allowHalfClosure)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(handler())
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    return EchoServer(port: channel.localAddress?.port ?? 0, channel: channel, group: group)
  }

  func shutdown() async throws {
    try await channel.close()
    try await group.shutdownGracefully()
  }

  private final class Echo: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let farewell: Bool
    private var count = 0

    init(farewell: Bool) { self.farewell = farewell }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      count += unwrapInboundIn(data).readableBytes
      context.writeAndFlush(data, promise: nil)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
      guard farewell, case ChannelEvent.inputClosed = event else {
        context.fireUserInboundEventTriggered(event)
        return
      }
      let farewell = context.channel.allocator.buffer(string: "read \(count) bytes, then the end\n")
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      context.writeAndFlush(wrapOutboundOut(farewell)).whenComplete { _ in
        loopBound.value.close(promise: nil)
      }
    }
  }

  private final class Answer: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias OutboundOut = ByteBuffer
    private let answer: String
    private var answered = false

    init(_ answer: String) { self.answer = answer }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
      guard !answered else { return }
      answered = true
      let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
      context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: answer))).whenComplete {
        _ in
        loopBound.value.close(promise: nil)
      }
    }
  }
}
