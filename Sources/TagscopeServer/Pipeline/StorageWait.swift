import NIOCore

/// The intake stage's last step, for `listen`'s handler and the proxy's alike: a request whose
/// records were delivered waits until they are stored (with `--record`, written and fsynced)
/// before its final stage replies or forwards; a store slower than the request timeout gets `503`
/// + `Retry-After` instead.
enum StorageWait {
  /// Tells `handler` on the connection's event loop once the records delivered so far are stored.
  static func wait<Handler: RequestPipelineHandler>(
    for handler: Handler, server: ServerContext, context: ChannelHandlerContext
  ) {
    let loopBound = NIOLoopBound((handler, context), eventLoop: context.eventLoop)
    let eventLoop = context.eventLoop
    server.ingest.whenStored {
      eventLoop.execute {
        let (handler, context) = loopBound.value
        handler.recordsStored(context: context)
      }
    }
  }

  /// The reply of a request whose records were taken but not stored within the request timeout:
  /// the SDK is told to retry (the records are still written when the disk takes them), and the
  /// messages of `ledger` are remembered so that the retry is not recorded again
  /// (``RetryMemory``).
  static func timedOut(_ ledger: RetryLedger, server: ServerContext) -> SDKReply {
    server.remember(ledger)
    return RequestPolicy.busy
  }
}
