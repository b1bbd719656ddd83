import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// Tells HTTP from the native stream by the first byte a client sends, then replaces itself with
/// that protocol's handlers: `{` (a recording header) is native, an uppercase letter (a request
/// method) is HTTP, anything else is refused. A client that sends nothing is closed after
/// ``ListenConfiguration/firstBytesTimeout``.
final class ProtocolDetector: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer

  private let server: ServerContext
  private var deadline: Scheduled<Void>?
  /// Whether this connection's protocol handlers were added. Later reads can still reach the
  /// detector while it passes the first one on, before it leaves the pipeline: a write failing
  /// within that read (the client reset) makes NIO drain the socket from within the flush
  /// (`BaseSocketChannel.flushNow`), firing what is left from the head of the pipeline. Those
  /// reads go on to the handlers added (after the first read, in order), never to a second set.
  private var detected = false

  init(server: ServerContext) { self.server = server }

  func handlerAdded(context: ChannelHandlerContext) {
    if context.channel.isActive { armDeadline(context: context) }
  }

  func channelActive(context: ChannelHandlerContext) {
    armDeadline(context: context)
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    deadline?.cancel()
    context.fireChannelInactive()
  }

  /// A client that ends its side before saying anything is closed; after, the end goes on to
  /// the handlers added, like a read reaching the detector before it leaves (see `detected`).
  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case ChannelEvent.inputClosed = event, !detected {
      context.close(promise: nil)
      return
    }
    context.fireUserInboundEventTriggered(event)
  }

  private func armDeadline(context: ChannelHandlerContext) {
    guard deadline == nil else { return }
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let server = self.server
    deadline = context.eventLoop.scheduleTask(in: server.configuration.firstBytesTimeout) {
      server.statistics.timeout(.silent)
      loopBound.value.close(promise: nil)
    }
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard !detected else {
      context.fireChannelRead(data)
      return
    }
    let buffer = unwrapInboundIn(data)
    guard let first = buffer.readableBytesView.first else { return }
    deadline?.cancel()
    deadline = nil
    do {
      switch first {
      case UInt8(ascii: "{"), UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"):
        try addNativeHandlers(context: context)
      case UInt8(ascii: "A")...UInt8(ascii: "Z"):
        try addHTTPHandlers(context: context)
      default:
        server.statistics.reject(.unknownProtocol)
        context.close(promise: nil)
        return
      }
    } catch {
      context.close(promise: nil)
      return
    }
    detected = true
    context.fireChannelRead(data)
    context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
  }

  private func addNativeHandlers(context: ChannelHandlerContext) throws {
    let operations = context.pipeline.syncOperations
    try operations.addHandlers(
      [
        ByteToMessageHandler(LineFrameDecoder(maximumLength: server.configuration.maximumLineBytes)),
        NativeStreamHandler(server: server),
      ], position: .after(self))
  }

  private func addHTTPHandlers(context: ChannelHandlerContext) throws {
    let operations = context.pipeline.syncOperations
    try operations.addHandlers(
      [
        HTTPResponseEncoder(),
        ChunkSizeGuard(limit: server.configuration.maximumBodyBytes),
        ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .dropBytes)),
        HTTPServerPipelineHandler(),
        NIOHTTPRequestDecompressor(limit: .size(server.configuration.maximumBodyBytes)),
        HTTPIngestHandler(server: server),
      ], position: .after(self))
  }
}
