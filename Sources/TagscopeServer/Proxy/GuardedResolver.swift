import Dispatch
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Resolves an upstream host (one `getaddrinfo`, off the event loop, as NIO's own resolver does)
/// and fails both lookups with an ``UpstreamRefusal`` when ``UpstreamPolicy`` refuses any address
/// it gives: the connection is then never attempted, so the addresses checked are the addresses
/// connected to. IP literals (`127.1`, `[::ffff:127.0.0.1]`) go through it too.
final class GuardedResolver: Resolver, Sendable {
  private let v4: EventLoopPromise<[SocketAddress]>
  private let v6: EventLoopPromise<[SocketAddress]>
  private let started = NIOLockedValueBox(false)
  private let policy: UpstreamPolicy
  private let name: String

  /// A resolver for one connection attempt on `eventLoop`, `name` being the host as the client
  /// named it (for the refusal's sentence).
  init(policy: UpstreamPolicy, name: String, eventLoop: any EventLoop) {
    self.policy = policy
    self.name = name
    v4 = eventLoop.makePromise()
    v6 = eventLoop.makePromise()
  }

  func initiateAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
    start(host: host, port: port)
    return v4.futureResult
  }

  func initiateAAAAQuery(host: String, port: Int) -> EventLoopFuture<[SocketAddress]> {
    start(host: host, port: port)
    return v6.futureResult
  }

  func cancelQueries() {}

  private func start(host: String, port: Int) {
    let first = started.withLockedValue { started in
      defer { started = true }
      return !started
    }
    guard first else { return }
    DispatchQueue.global().async {
      switch Self.lookup(host: host, port: port) {
      case .failure(let error):
        self.v4.fail(error)
        self.v6.fail(error)
      case .success(let addresses):
        if let refusal = self.policy.refusal(addresses, host: self.name) {
          self.v4.fail(refusal)
          self.v6.fail(refusal)
          return
        }
        self.v4.succeed(addresses.filter { $0.protocol == .inet })
        self.v6.succeed(addresses.filter { $0.protocol == .inet6 })
      }
    }
  }

  /// `getaddrinfo` for TCP: every address it gives, in its order.
  private static func lookup(host: String, port: Int) -> Result<[SocketAddress], any Error> {
    var hints = addrinfo()
    #if canImport(Darwin)
      hints.ai_socktype = SOCK_STREAM
    #else
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #endif
    hints.ai_protocol = Int32(IPPROTO_TCP)
    var list: UnsafeMutablePointer<addrinfo>?
    let code = getaddrinfo(host, String(port), &hints, &list)
    guard code == 0, let list else {
      return .failure(UnresolvedHost(host: host, port: port, code: code))
    }
    defer { freeaddrinfo(list) }
    var addresses: [SocketAddress] = []
    var entry: UnsafeMutablePointer<addrinfo>? = list
    while let current = entry {
      if let raw = current.pointee.ai_addr {
        switch current.pointee.ai_family {
        case AF_INET:
          addresses.append(
            raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: host) }
          )
        case AF_INET6:
          addresses.append(
            raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
              SocketAddress($0.pointee, host: host)
            })
        default:
          break
        }
      }
      entry = current.pointee.ai_next
    }
    return .success(addresses)
  }
}

/// A host name `getaddrinfo` did not resolve (NIO's own `SocketAddressError.UnknownHost` cannot
/// be made outside NIO, and its older `.unknown` case is deprecated).
struct UnresolvedHost: Error, CustomStringConvertible {
  let host: String
  let port: Int
  /// `getaddrinfo`'s error code.
  let code: Int32

  var description: String { "\(host):\(port) does not resolve (getaddrinfo error \(code))" }
}
