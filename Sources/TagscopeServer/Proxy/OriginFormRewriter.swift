import NIOCore
import NIOHTTP1

/// With `--no-forward`, in front of `listen`'s handler: counts each proxied request and rewrites an
/// absolute-form target (`http://host/path`, plain HTTP through the proxy) to origin form
/// (`/path`), as that handler reads it, its Host header the target's authority.
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
    let target = RequestTarget(head.uri)
    head.uri = target.originForm
    if let host = target.host, let port = target.port {
      // The target's authority, not the Host header, names the host (RFC 9112 §3.2.2): listen's
      // handler routes by the header.
      let bracketed = host.contains(":") ? "[\(host)]" : host
      head.headers.replaceOrAdd(name: "Host", value: port == 80 ? bracketed : "\(bracketed):\(port)")
    }
    context.fireChannelRead(wrapInboundOut(.head(head)))
  }
}
