import NIOCore
import NIOSSL

/// Sits behind the TLS handler of an intercepted connection: once the client ended its side
/// without TLS's `close_notify` (a ragged end, which NIOSSL reports as an unclean shutdown), a
/// close asked for afterwards goes past NIOSSL to the connection's first handler
/// (``LingeringClose``), which closes once what is written is sent. NIOSSL would otherwise send
/// its own `close_notify` and wait up to its shutdown timeout (5 s) for the client's, which can no
/// longer come: the connection stayed open that long.
final class RaggedTLSEnd: ChannelDuplexHandler {
  typealias InboundIn = NIOAny
  typealias OutboundIn = NIOAny

  private var ragged = false

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    if let tlsError = error as? NIOSSLError, case .uncleanShutdown = tlsError { ragged = true }
    context.fireErrorCaught(error)
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    guard ragged, mode == .all else {
      context.close(mode: mode, promise: promise)
      return
    }
    // The client's side is ended, so nothing of its input is left unread: the first handler
    // closes as soon as the answer written (relayed, perhaps, and still on its way) is sent.
    context.triggerUserOutboundEvent(LingeringClose.CloseWhenSent(), promise: promise)
  }
}
