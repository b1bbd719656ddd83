import NIOCore
import NIOSSL

/// Sits behind the TLS handler of an intercepted connection: once the client ended its side
/// without TLS's `close_notify` (a ragged end, which NIOSSL reports as an unclean shutdown), a
/// close asked for afterwards (the reply owed is written by then) closes the connection at once.
/// NIOSSL would otherwise send its own `close_notify` and wait up to its shutdown timeout (5 s) for
/// the client's, which can no longer come: the connection stayed open that long.
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
    // Past the TLS handler to the connection's first handler (``LingeringClose``), which closes
    // at once: the client's side is ended, so nothing of its input is left unread.
    context.triggerUserOutboundEvent(LingeringClose.CloseNow(), promise: promise)
  }
}
