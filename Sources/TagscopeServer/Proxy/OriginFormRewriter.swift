import NIOCore
import NIOHTTP1

/// Rewrites an absolute-form request target (`http://host/path`, plain HTTP through the proxy) to
/// origin form (`/path`), as `listen`'s handler reads it.
final class OriginFormRewriter: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .head(var head) = unwrapInboundIn(data), RequestTarget(head.uri).scheme != nil else {
      context.fireChannelRead(data)
      return
    }
    head.uri = RequestTarget(head.uri).originForm
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }
}
