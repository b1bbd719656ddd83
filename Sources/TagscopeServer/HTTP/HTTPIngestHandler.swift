/// `listen`'s HTTP handler: the SDK request pipeline (``RequestPipeline``) ending in `listen`'s
/// reply stage (``ListenReplyStage``).
///
/// It collects one HTTP request at a time within its endpoint's body limit and deadline, hands it
/// to the SDK endpoint, delivers what it accepted, then answers as the real service does, once
/// the ingest says the records are stored (``ListenIngest/whenStored(_:)``: with `--record`,
/// written and fsynced). A request whose records are taken but not durable within the request
/// timeout gets `503` + `Retry-After`; they are still written, and its messages are remembered
/// (``RetryMemory``) so that the SDK's retry does not record them twice.
typealias HTTPIngestHandler = RequestPipeline<ListenReplyStage>

extension RequestPipeline where Stage == ListenReplyStage {
  /// `listen`'s handler for the connections of `server`.
  convenience init(server: ServerContext) {
    self.init(stage: ListenReplyStage(server: server))
  }
}
