import NIOCore
import NIOHTTP1

/// With `--no-forward`, in front of `listen`'s handler: counts each proxied request and rewrites an
/// absolute-form target (`http://host/path`, plain HTTP through the proxy) to origin form
/// (`/path`), as that handler reads it.
final class OriginFormRewriter: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias InboundOut = HTTPServerRequestPart

  private let statistics: StatisticsCounter

  init(statistics: StatisticsCounter) { self.statistics = statistics }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    if case .head = unwrapInboundIn(data) { statistics.update { $0.proxiedRequests += 1 } }
    guard case .head(var head) = unwrapInboundIn(data), RequestTarget(head.uri).scheme != nil else {
      context.fireChannelRead(data)
      return
    }
    head.uri = RequestTarget(head.uri).originForm
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }
}
