import NIOCore

/// First handler of every connection: counts it, registers it for shutdown, notes when it last
/// sent anything, and when too many are open closes the one silent the longest to make room.
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
      // Make room by closing the connection silent the longest, not by refusing the new one:
      // held-open idle connections cannot lock everyone else out.
      guard let idlest = server.takeLongestIdle(except: context.channel) else {
        server.statistics.reject(.tooManyConnections)
        context.close(promise: nil)
        return
      }
      server.statistics.update { $0.evicted += 1 }
      server.reportEviction(peer: idlest.peer, idle: idlest.idle)
      _ = LingeringClose.closeNow(idlest.channel)
    }
    context.fireChannelActive()
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    server.touch(context.channel)
    context.fireChannelRead(data)
  }

  func channelInactive(context: ChannelHandlerContext) {
    server.unregister(context.channel)
    server.statistics.update { $0.openConnections -= 1 }
    context.fireChannelInactive()
  }
}
