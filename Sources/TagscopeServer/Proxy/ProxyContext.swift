import NIOConcurrencyHelpers
import NIOCore
import NIOSSL

/// What every proxy connection shares: its configuration, the server it feeds (records, devices,
/// ingest, statistics), the certificate authority and the TLS contexts made from it.
final class ProxyContext: Sendable {
  let configuration: ProxyConfiguration
  let server: ServerContext
  let authority: CertificateAuthority
  /// Verifies upstream servers (the system's roots, or ``ProxyConfiguration/upstreamTrustRoots``).
  let upstreamTLS: NIOSSLContext
  private let serverContexts = NIOLockedValueBox<[String: NIOSSLContext]>([:])
  /// The ports this process listens on, as configured and as bound (``noteOwnPort(_:)``).
  private let ownPorts: NIOLockedValueBox<Set<Int>>
  /// The clients and hosts whose refused handshake was reported (``reportOnce(_:_:)``).
  private let reportedOnce = NIOLockedValueBox<Set<String>>([])
  /// This machine's interface addresses, read once at start.
  private let localAddresses = UpstreamPolicy.interfaceAddresses()

  /// Throws a ``ProxyStartRefusal`` for a proxy that would be an open relay
  /// (``ProxyConfiguration/startRefusal(bindAddress:hasToken:)``).
  init(configuration: ProxyConfiguration, server: ServerContext) throws {
    if let refusal = configuration.startRefusal(
      bindAddress: server.configuration.host, hasToken: server.tokenCheck != nil)
    {
      throw ProxyStartRefusal(description: refusal)
    }
    self.configuration = configuration
    self.server = server
    ownPorts = NIOLockedValueBox(Set([configuration.port, server.configuration.port].filter { $0 != 0 }))
    authority = try CertificateAuthority(directory: configuration.authorityDirectory)
    var client = TLSConfiguration.makeClientConfiguration()
    client.applicationProtocols = ["http/1.1"]
    if let roots = configuration.upstreamTrustRoots {
      client.trustRoots = .file(roots)
    }
    upstreamTLS = try NIOSSLContext(configuration: client)
  }

  /// The server-side TLS context presenting `host`'s leaf (minted on first use).
  func interceptionTLS(for host: String) throws -> NIOSSLContext {
    let key = host.lowercased()
    if let cached = serverContexts.withLockedValue({ $0[key] }) { return cached }
    let leaf = try authority.leaf(for: key)
    var configuration = TLSConfiguration.makeServerConfiguration(
      certificateChain: [
        .certificate(try NIOSSLCertificate(bytes: Array(leaf.certificatePEM.utf8), format: .pem))
      ],
      privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.privateKeyPEM.utf8), format: .pem)))
    // HTTP/1.1 only: the SDKs fall back to it, and the endpoint decoders read HTTP/1.1 requests.
    configuration.applicationProtocols = ["http/1.1"]
    let context = try NIOSSLContext(configuration: configuration)
    serverContexts.withLockedValue { $0[key] = context }
    return context
  }

  /// Notes a port this process listens on (the proxy's, once bound): never an upstream.
  func noteOwnPort(_ port: Int?) {
    guard let port, port != 0 else { return }
    _ = ownPorts.withLockedValue { $0.insert(port) }
  }

  /// What upstream connections may reach; `given` for an address a `resolve` entry names.
  func upstreamPolicy(given: Bool) -> UpstreamPolicy {
    UpstreamPolicy(
      allowsLoopback: given || configuration.allowsLoopbackUpstream,
      ownPorts: ownPorts.withLockedValue { $0 },
      localAddresses: localAddresses)
  }

  /// Reports a proxy problem (an unreachable vendor, a refused answer) to the session.
  func report(_ message: String) {
    server.deliver(.problem(source: "proxy", message: message))
  }

  /// Reports `message` the first time only for `key` (a client and a host): an SDK retrying a
  /// refused handshake (eight times, for some) gets one line, not one per retry. Past 4,096 keys the
  /// memory starts again, so a client making up hosts holds no more than that.
  func reportOnce(_ key: String, _ message: String) {
    let first = reportedOnce.withLockedValue { keys in
      if keys.count >= 4_096 { keys.removeAll() }
      return keys.insert(key).inserted
    }
    if first { report(message) }
  }
}

/// Why `tagscope proxy` does not start: a sentence saying how to fix it.
public struct ProxyStartRefusal: Error, CustomStringConvertible {
  /// The sentence.
  public let description: String
}
