import NIOCore

/// The first handler of every connection (`listen`'s and the proxy's): a close asked for while the
/// client may still be sending becomes a lingering close, as Apache's and nginx's
/// (`lingering_close`). Closing a socket with unread input makes the kernel send a reset, and the
/// client may then lose the reply written just before (a refusal with pipelined requests behind
/// it). So the reply is flushed, the write side shut (the client reads the reply, then its end),
/// and what the client still sends is read and discarded until it ends its side, at most
/// ``budget`` bytes and ``timeout`` long; then the connection closes.
///
/// A client that already ended its side has nothing unread: its connection closes once what is
/// written is sent (within ``timeout``). One closed by ``closeNow(_:)`` (shutdown, eviction)
/// closes at once.
final class LingeringClose: ChannelDuplexHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer
  typealias OutboundIn = ByteBuffer
  typealias OutboundOut = ByteBuffer

  /// The most read and discarded while lingering before the connection is closed anyway.
  static let budget = 1024 * 1024
  /// How long a lingering connection waits for the client to end its side.
  static let timeout = TimeAmount.seconds(2)

  /// The outbound event that closes a connection at once, lingering or not.
  struct CloseNow: Sendable {}

  /// The outbound event that closes a connection as a close reaching this handler does (once what
  /// is written is sent), for a handler whose own close must not pass the handlers between
  /// (``RaggedTLSEnd``: NIOSSL would wait for a `close_notify` that cannot come).
  struct CloseWhenSent: Sendable {}

  private struct Lingering {
    var discarded = 0
    var deadline: Scheduled<Void>?
    var promises: [EventLoopPromise<Void>] = []
    var finished = false
  }

  /// The client ended its side (a half-close): nothing of its input is left unread.
  private var inputClosed = false
  private var lingering: Lingering?

  /// Closes `channel` at once, without lingering (the server shutting down, an idle connection
  /// evicted for a new one).
  static func closeNow(_ channel: any Channel) -> EventLoopFuture<Void> {
    let promise = channel.eventLoop.makePromise(of: Void.self)
    channel.triggerUserOutboundEvent(CloseNow(), promise: promise)
    return promise.futureResult
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard var current = lingering else {
      context.fireChannelRead(data)
      return
    }
    current.discarded += unwrapInboundIn(data).readableBytes
    lingering = current
    if current.discarded > Self.budget { finish(context: context) }
  }

  func channelReadComplete(context: ChannelHandlerContext) {
    guard lingering != nil else {
      context.fireChannelReadComplete()
      return
    }
    // The handlers after this one may hold reads (a reply pending): lingering reads on regardless.
    context.read()
  }

  func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
    if case ChannelEvent.inputClosed = event {
      inputClosed = true
      if lingering != nil {
        finish(context: context)
        return
      }
    }
    guard lingering == nil else { return }
    context.fireUserInboundEventTriggered(event)
  }

  func errorCaught(context: ChannelHandlerContext, error: any Error) {
    // While lingering the connection is answered already: an error of its input only ends it.
    guard lingering == nil else {
      finish(context: context)
      return
    }
    context.fireErrorCaught(error)
  }

  func channelInactive(context: ChannelHandlerContext) {
    complete()
    context.fireChannelInactive()
  }

  func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
    guard mode == .all else {
      context.close(mode: mode, promise: promise)
      return
    }
    if let current = lingering {
      if current.finished {
        context.close(mode: .all, promise: promise)
      } else if let promise {
        lingering?.promises.append(promise)
      }
      return
    }
    guard context.channel.isActive else {
      context.close(mode: .all, promise: promise)
      return
    }
    linger(context: context, promise: promise)
  }

  func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?)
  {
    if event is CloseWhenSent {
      close(context: context, mode: .all, promise: promise)
      return
    }
    guard event is CloseNow else {
      context.triggerUserOutboundEvent(event, promise: promise)
      return
    }
    if let current = lingering, !current.finished {
      if let promise { lingering?.promises.append(promise) }
      finish(context: context)
    } else {
      context.close(mode: .all, promise: promise)
    }
  }

  /// Sends what is written, then: with the client's side ended, closes; else shuts the write side
  /// and reads on until the client ends its side.
  private func linger(context: ChannelHandlerContext, promise: EventLoopPromise<Void>?) {
    let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
    lingering = Lingering(
      deadline: context.eventLoop.scheduleTask(in: Self.timeout) {
        let (handler, context) = loopBound.value
        handler.finish(context: context)
      },
      promises: promise.map { [$0] } ?? [])
    let sent = context.eventLoop.makePromise(of: Void.self)
    sent.futureResult.whenComplete { result in
      let (handler, context) = loopBound.value
      if case .failure = result {
        handler.finish(context: context)
      } else if handler.inputClosed {
        handler.finish(context: context)
      }
    }
    if inputClosed {
      // Nothing unread: only what is written is owed (a write completes after those before it).
      context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(capacity: 0)), promise: sent)
    } else {
      context.flush()
      context.close(mode: .output, promise: sent)
      context.read()
    }
  }

  /// Ends a lingering connection (once).
  private func finish(context: ChannelHandlerContext) {
    guard let current = lingering, !current.finished else { return }
    lingering?.finished = true
    context.close(mode: .all, promise: nil)
    complete()
  }

  /// Completes the closes asked for: the connection is closed (or closing).
  private func complete() {
    guard let current = lingering else { return }
    current.deadline?.cancel()
    lingering?.deadline = nil
    lingering?.promises = []
    for promise in current.promises { promise.succeed(()) }
  }
}
