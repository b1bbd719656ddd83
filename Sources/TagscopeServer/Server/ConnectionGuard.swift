import NIOCore

/// First handler of every connection: counts it, registers it for shutdown and closes it at once
/// when too many are open.
final class ConnectionGuard: ChannelInboundHandler {
  typealias InboundIn = ByteBuffer

  private let server: ServerContext

  init(server: ServerContext) { self.server = server }

  func channelActive(context: ChannelHandlerContext) {
    server.register(context.channel)
    var open = 0
    server.statistics.update {
      $0.connections += 1
      $0.openConnections += 1
      open = $0.openConnections
    }
    if open > server.configuration.maximumConnections {
      server.statistics.reject(.tooManyConnections)
      context.close(promise: nil)
      return
    }
    context.fireChannelActive()
  }

  func channelInactive(context: ChannelHandlerContext) {
    server.unregister(context.channel)
    server.statistics.update { $0.openConnections -= 1 }
    context.fireChannelInactive()
  }
}
