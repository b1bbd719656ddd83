import Foundation
import NIOCore

/// How `tagscope proxy` intercepts: its port, the hosts it decrypts and decodes, whether it
/// forwards to the vendors, and where its certificate authority lives.
public struct ProxyConfiguration: Sendable {
  /// The proxy's TCP port (`0` picks a free one).
  public var port: Int
  /// The hosts whose traffic is decrypted, decoded and forwarded; every other host is tunnelled.
  public var hosts: InterceptedHosts
  /// Forwards each intercepted request to its vendor and relays the answer; `false` answers
  /// locally as `listen` does (offline QA).
  public var forward: Bool
  /// The certificate authority's directory.
  public var authorityDirectory: URL
  /// Where upstream connections go instead of what DNS says, by host (`*` for every host): for
  /// tests and for a vendor reachable only by address.
  public var resolve: [String: UpstreamAddress]
  /// A PEM file of the roots upstream servers are verified against instead of the system's.
  public var upstreamTrustRoots: String?
  /// How long an upstream connection (TCP and TLS) may take to open.
  public var connectTimeout: TimeAmount
  /// How long a client has to finish its TLS handshake after `CONNECT`.
  public var handshakeTimeout: TimeAmount
  /// How long an upstream server may take to answer a forwarded request.
  public var upstreamTimeout: TimeAmount
  /// Lets a proxy bound off loopback run without a token (`--allow-no-token`): anyone who
  /// reaches it can relay through it.
  public var allowsNoToken = false
  /// Lets `CONNECT` and absolute-form targets reach loopback, link-local and unspecified
  /// addresses (`--allow-loopback-upstream`); the proxy's own ports stay refused. A ``resolve``
  /// entry is taken as given.
  public var allowsLoopbackUpstream = false

  /// The default proxy port, 8888 (Charles' and Proxyman's).
  public static let defaultPort = 8888

  /// A configuration: the built-in SDK hosts, forwarding on.
  public init(
    port: Int = ProxyConfiguration.defaultPort, hosts: InterceptedHosts = InterceptedHosts(),
    forward: Bool = true, authorityDirectory: URL = ProxyConfiguration.defaultAuthorityDirectory,
    resolve: [String: UpstreamAddress] = [:], upstreamTrustRoots: String? = nil,
    connectTimeout: TimeAmount = .seconds(10), handshakeTimeout: TimeAmount = .seconds(10),
    upstreamTimeout: TimeAmount = .seconds(30)
  ) {
    self.port = port
    self.hosts = hosts
    self.forward = forward
    self.authorityDirectory = authorityDirectory
    self.resolve = resolve
    self.upstreamTrustRoots = upstreamTrustRoots
    self.connectTimeout = connectTimeout
    self.handshakeTimeout = handshakeTimeout
    self.upstreamTimeout = upstreamTimeout
  }

  /// `$XDG_CONFIG_HOME/tagscope/ca` (`~/.config/tagscope/ca`); on macOS
  /// `~/Library/Application Support/Tagscope/ca`.
  public static var defaultAuthorityDirectory: URL {
    let environment = ProcessInfo.processInfo.environment
    let home = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory())
    #if os(macOS)
      return home.appendingPathComponent("Library/Application Support/Tagscope/ca")
    #else
      if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
        return URL(fileURLWithPath: config).appendingPathComponent("tagscope/ca")
      }
      return home.appendingPathComponent(".config/tagscope/ca")
    #endif
  }

  /// Where an upstream connection for `host` goes: the `resolve` entry for it (or `*`), else the
  /// host itself; `given` when a `resolve` entry said so.
  func upstream(host: String, port: Int) -> (address: UpstreamAddress, given: Bool) {
    if let entry = resolve[host.lowercased()] ?? resolve["*"] { return (entry, true) }
    return (UpstreamAddress(host: host, port: port), false)
  }

  /// Why a proxy bound to `bindAddress` must not start: off loopback without a token it is an
  /// open relay for anyone on the network, unless ``allowsNoToken``; `nil` when it may.
  public func startRefusal(bindAddress: String, hasToken: Bool) -> String? {
    guard !hasToken, !allowsNoToken, !UpstreamPolicy.isLoopback(bindAddress: bindAddress) else { return nil }
    return "the proxy bound to \(bindAddress) would relay for anyone who reaches it: give --token SECRET "
      + "(the proxy password a device sends), bind to 127.0.0.1, or, on a network you trust, --allow-no-token"
  }
}

/// A host and port to connect to.
public struct UpstreamAddress: Sendable, Equatable {
  /// Host name or address.
  public var host: String
  /// TCP port.
  public var port: Int

  /// An address.
  public init(host: String, port: Int) {
    self.host = host
    self.port = port
  }

  /// Parses `HOST:PORT` (an IPv6 address in brackets; the host checked as every host the proxy
  /// takes, ``InterceptedHosts/hostNameProblem(_:)``), or `nil`.
  public init?(parsing text: String) {
    guard case .success(let authority) = Authority.parse(text, defaultPort: nil) else { return nil }
    self.init(host: authority.host, port: authority.port)
  }
}
