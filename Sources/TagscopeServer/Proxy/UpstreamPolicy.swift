import NIOCore
import NIOPosix

/// Why the proxy does not connect where a client asked: the sentence of its `403`.
struct UpstreamRefusal: Error, CustomStringConvertible {
  let description: String

  /// The refusal inside a failed connection attempt (both lookups of ``GuardedResolver`` fail
  /// with it), if that is why it failed.
  static func of(_ error: any Error) -> UpstreamRefusal? {
    if let refusal = error as? UpstreamRefusal { return refusal }
    guard let failure = error as? NIOConnectionError else { return nil }
    return (failure.dnsAAAAError as? UpstreamRefusal) ?? (failure.dnsAError as? UpstreamRefusal)
  }
}

/// Where the proxy connects for a client: never to this machine's own listening ports (a loop,
/// or a way into `listen`'s query API), and not to loopback (127/8, ::1), link-local (169.254/16,
/// fe80::/10) or unspecified (0/8, ::) addresses, IPv4-mapped or -compatible forms included,
/// unless allowed. It judges the addresses a name resolves to, not the name: `127.1` or a name
/// whose DNS answers 127.0.0.1 is refused as `127.0.0.1` is.
struct UpstreamPolicy: Sendable {
  /// Loopback, link-local and unspecified addresses allowed.
  var allowsLoopback: Bool
  /// The ports this process listens on (the proxy's and `listen`'s).
  var ownPorts: Set<Int>
  /// This machine's interface addresses (``canonical(_:)``): with an own port, a loop.
  var localAddresses: Set<[UInt8]>

  /// The refusal of connecting to any of `addresses` for `host`, or `nil` when all may be used.
  func refusal(_ addresses: [SocketAddress], host: String) -> UpstreamRefusal? {
    for address in addresses {
      guard let bytes = Self.canonical(address), let port = address.port else { continue }
      let kind = Self.kind(bytes)
      if ownPorts.contains(port), kind != nil || localAddresses.contains(bytes) {
        return UpstreamRefusal(
          description: "\(host) is this proxy's own port \(port) (\(address.ipAddress ?? "")): refused")
      }
      if let kind, !allowsLoopback {
        return UpstreamRefusal(
          description:
            "\(host) resolves to \(address.ipAddress ?? ""), a \(kind) address: refused "
            + "(tagscope proxy --allow-loopback-upstream allows it)")
      }
    }
    return nil
  }

  /// Whether a bind address keeps a server on this machine (`localhost`, 127/8, ::1).
  static func isLoopback(bindAddress: String) -> Bool {
    let host = bindAddress.trimmingPrefix("[").split(separator: "]").first.map(String.init) ?? bindAddress
    if host.lowercased() == "localhost" { return true }
    guard let address = try? SocketAddress(ipAddress: host, port: 0), let bytes = canonical(address) else {
      return false
    }
    return bytes.count == 4 ? bytes[0] == 127 : bytes == loopbackV6
  }

  /// This machine's interface addresses, canonical.
  static func interfaceAddresses() -> Set<[UInt8]> {
    let devices = (try? System.enumerateDevices()) ?? []
    return Set(devices.compactMap { $0.address.flatMap(canonical) })
  }

  /// An address's bytes: 4 for IPv4 and for IPv6 that embeds IPv4 (mapped `::ffff:a.b.c.d`,
  /// compatible `::a.b.c.d`, NAT64 `64:ff9b::a.b.c.d`), else 16; `nil` for a Unix socket.
  static func canonical(_ address: SocketAddress) -> [UInt8]? {
    switch address {
    case .v4(let v4):
      return withUnsafeBytes(of: v4.address.sin_addr) { Array($0) }
    case .v6(let v6):
      let bytes = withUnsafeBytes(of: v6.address.sin6_addr) { Array($0) }
      let prefix = Array(bytes[0..<12])
      let embedded = Array(bytes[12...])
      if prefix == mappedPrefix || prefix == nat64Prefix { return embedded }
      if prefix.allSatisfy({ $0 == 0 }), bytes != loopbackV6, bytes != unspecifiedV6 { return embedded }
      return bytes
    default:
      return nil
    }
  }

  /// What kind of address the proxy refuses `bytes` is, or `nil`.
  static func kind(_ bytes: [UInt8]) -> String? {
    if bytes.count == 4 {
      switch (bytes[0], bytes[1]) {
      case (127, _): return "loopback"
      case (169, 254): return "link-local"
      case (0, _): return "unspecified"
      default: return nil
      }
    }
    if bytes == loopbackV6 { return "loopback" }
    if bytes == unspecifiedV6 { return "unspecified" }
    if bytes[0] == 0xFE, bytes[1] & 0xC0 == 0x80 { return "link-local" }
    return nil
  }

  private static let loopbackV6: [UInt8] = Array(repeating: 0, count: 15) + [1]
  private static let unspecifiedV6: [UInt8] = Array(repeating: 0, count: 16)
  private static let mappedPrefix: [UInt8] = Array(repeating: 0, count: 10) + [0xFF, 0xFF]
  private static let nat64Prefix: [UInt8] = [0x00, 0x64, 0xFF, 0x9B] + Array(repeating: 0, count: 8)
}
