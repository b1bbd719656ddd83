import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

/// Opens the proxy's connections to vendors and tunnelled hosts, on the event loop of the client
/// connection they serve (so the two channels' handlers share one thread), within
/// ``ProxyConfiguration/connectTimeout``. Every address is resolved through ``GuardedResolver``:
/// a connection ``UpstreamPolicy`` refuses fails with an ``UpstreamRefusal`` before any is made.
enum UpstreamConnector {
  /// A raw TCP connection to `host:port` (after ``ProxyConfiguration/resolve``), for a tunnel.
  static func tunnel(
    host: String, port: Int, proxy: ProxyContext, eventLoop: any EventLoop
  ) -> EventLoopFuture<any Channel> {
    let (address, given) = proxy.configuration.upstream(host: host, port: port)
    return ClientBootstrap(group: eventLoop)
      .resolver(GuardedResolver(policy: proxy.upstreamPolicy(given: given), name: host, eventLoop: eventLoop))
      .connectTimeout(proxy.configuration.connectTimeout)
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelOption(.autoRead, value: false)
      // The tunnelled host's half-close is passed on to the client (``TunnelGlue``).
      .channelOption(.allowRemoteHalfClosure, value: true)
      .connect(host: address.host, port: address.port)
  }

  /// An HTTP/1.1 client connection to `host:port`, over TLS verified for `host` when `secure`,
  /// ending in `relay`.
  static func http(
    host: String, port: Int, secure: Bool, proxy: ProxyContext, eventLoop: any EventLoop,
    relay: UpstreamRelay
  ) -> EventLoopFuture<any Channel> {
    let (address, given) = proxy.configuration.upstream(host: host, port: port)
    let tls = proxy.upstreamTLS
    let connectTimeout = proxy.configuration.connectTimeout
    let boundRelay = NIOLoopBound(relay, eventLoop: eventLoop)
    return ClientBootstrap(group: eventLoop)
      .resolver(GuardedResolver(policy: proxy.upstreamPolicy(given: given), name: host, eventLoop: eventLoop))
      .connectTimeout(connectTimeout)
      .channelOption(.socketOption(.tcp_nodelay), value: 1)
      .channelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let operations = channel.pipeline.syncOperations
          if secure {
            // The host's name, not the resolved address, is what the certificate must carry.
            let hostname = Self.isAddress(host) ? nil : host
            try operations.addHandler(NIOSSLClientHandler(context: tls, serverHostname: hostname))
          }
          try operations.addHTTPClientHandlers(leftOverBytesStrategy: .dropBytes)
          try operations.addHandler(boundRelay.value)
        }
      }
      .connect(host: address.host, port: address.port)
  }

  private static func isAddress(_ host: String) -> Bool {
    host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." }
  }
}
