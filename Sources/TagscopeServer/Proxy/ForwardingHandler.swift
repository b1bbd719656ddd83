/// The client side of an intercepted connection (decrypted after `CONNECT`, or plain HTTP in
/// absolute form): the SDK request pipeline (``RequestPipeline``) ending in the proxy's forward
/// stage (``ForwardStage``). It takes one request at a time, decodes it with `listen`'s endpoint
/// decoders when the host is an SDK's (records for the session), and forwards it unchanged to the
/// vendor over one upstream connection kept for the client's once its records are stored (with
/// `--record`, written and fsynced: the vendor never gets what the recording lacks), then relays
/// the vendor's answer.
typealias ForwardingHandler = RequestPipeline<ForwardStage>

extension RequestPipeline where Stage == ForwardStage {
  /// The proxy's handler of requests to `host`:`port` (`decodes`: an SDK host), its upstream
  /// connections opened by `connect` (the proxy's own by default).
  convenience init(
    proxy: ProxyContext, host: String, port: Int, secure: Bool, decodes: Bool,
    connect: ForwardStage.Connect? = nil
  ) {
    self.init(
      stage: ForwardStage(
        proxy: proxy, host: host, port: port, secure: secure, decodes: decodes, connect: connect))
  }
}
