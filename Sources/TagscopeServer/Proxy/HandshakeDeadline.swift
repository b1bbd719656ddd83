import NIOCore
import NIOSSL
import NIOTLS

/// Sits behind the TLS handler of an intercepted connection: closes it when the client has not
/// finished its handshake in time, and says why when the client refused the proxy's certificate
/// (the device does not trust the CA yet).
final class HandshakeDeadline: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = NIOAny

  private let host: String
  private let proxy: ProxyContext
  private var deadline: Scheduled<Void>?

  init(host: String, proxy: ProxyContext) {
    self.host = host
    self.proxy = proxy
  }

  func handlerAdded(context: ChannelHandlerContext) {
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    let server = proxy.server
    deadline = context.eventLoop.scheduleTask(in: proxy.configuration.handshakeTimeout) {
      server.statistics.timeout(.proxyHandshake)
      loopBound.value.close(promise: nil)
    }
  }

  func handlerRemoved(context: ChannelHandlerContext) { deadline?.cancel() }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if let tlsEvent = event as? TLSUserEvent, case .handshakeCompleted = tlsEvent {
      deadline?.cancel()
      deadline = nil
      context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if deadline != nil {
      deadline?.cancel()
      deadline = nil
      // Once per client address and host: each retry of the SDK comes on a new connection.
      let client = context.channel.remoteAddress?.ipAddress ?? "?"
      proxy.reportOnce(
        client + " " + host.lowercased(),
        "\(host): the TLS handshake of \(client) with the proxy failed: \(SystemErrorWords.reason(error)); a device that does not trust the proxy's CA refuses it: see `tagscope proxy ca` (said once per client and host)"
      )
    }
    context.close(promise: nil)
  }
}
