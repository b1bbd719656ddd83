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

  init(configuration: ProxyConfiguration, server: ServerContext) throws {
    self.configuration = configuration
    self.server = server
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

  /// Reports a proxy problem (an unreachable vendor, a refused answer) to the session.
  func report(_ message: String) {
    server.deliver(.problem(source: "proxy", message: message))
  }
}
