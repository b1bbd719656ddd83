import NIOCore

/// The handler a request pipeline's shared stages call back on its event loop: `listen`'s and
/// the proxy's (called directly, so that a request costs no closure of its own for them).
protocol RequestPipelineHandler: AnyObject, SendableMetatype {
  /// The request deadline passed (``RequestDeadlines/armRequest(for:server:context:)``).
  func requestTimedOut(context: ChannelHandlerContext)
  /// What the request delivered is stored (``StorageWait/wait(for:server:context:)``).
  func recordsStored(context: ChannelHandlerContext)
}

/// A connection's two clocks in the SDK request pipeline, for `listen`'s handler and the proxy's
/// alike: the request deadline (a request, its body and its storage, within the request timeout)
/// and the idle deadline (a kept-alive connection between requests, within the keep-alive
/// timeout, then closed).
struct RequestDeadlines {
  private var request: Scheduled<Void>?
  private var idle: Scheduled<Void>?

  /// Whether the request deadline is armed.
  var requestArmed: Bool { request != nil }

  /// Arms (again) the request deadline: `handler` is told on the connection's event loop once the
  /// server's request timeout has passed.
  mutating func armRequest<Handler: RequestPipelineHandler>(
    for handler: Handler, server: ServerContext, context: ChannelHandlerContext
  ) {
    request?.cancel()
    let loopBound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
    request = context.eventLoop.scheduleTask(in: server.configuration.requestTimeout) {
      let (handler, context) = loopBound.value
      handler.requestTimedOut(context: context)
    }
  }

  /// Cancels the request deadline (the request is answered, or its storage awaited no more).
  mutating func cancelRequest() {
    request?.cancel()
    request = nil
  }

  /// Forgets the request deadline that just fired.
  mutating func requestExpired() {
    request = nil
  }

  /// Arms (again) the idle deadline: past the server's keep-alive timeout, the connection is
  /// counted as timed out and closed.
  mutating func armIdle(server: ServerContext, context: ChannelHandlerContext) {
    idle?.cancel()
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    idle = context.eventLoop.scheduleTask(in: server.configuration.keepAliveTimeout) {
      server.statistics.timeout(.keepAlive)
      loopBound.value.close(promise: nil)
    }
  }

  /// Cancels the idle deadline (a request came).
  mutating func cancelIdle() {
    idle?.cancel()
    idle = nil
  }

  /// Cancels both (the connection is gone).
  mutating func cancelAll() {
    cancelRequest()
    cancelIdle()
  }
}
