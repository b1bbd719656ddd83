import NIOCore
import NIOHTTP1

/// The last handler of an upstream connection: hands each part of the vendor's answer, and the
/// connection's end, to the client-side ``ForwardingHandler`` (same event loop).
final class UpstreamRelay: ChannelInboundHandler {
  typealias InboundIn = HTTPClientResponsePart

  private let onPart: (HTTPClientResponsePart, any Channel) -> Void
  private let onClose: (any Channel) -> Void

  init(
    onPart: @escaping (HTTPClientResponsePart, any Channel) -> Void, onClose: @escaping (any Channel) -> Void
  ) {
    self.onPart = onPart
    self.onClose = onClose
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    onPart(unwrapInboundIn(data), context.channel)
  }

  func channelInactive(context: ChannelHandlerContext) {
    onClose(context.channel)
    context.fireChannelInactive()
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    context.close(promise: nil)
  }
}
