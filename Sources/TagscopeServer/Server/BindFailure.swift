import Foundation
import NIOCore

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A port ``ListenServer`` could not listen on, in plain words naming what the user gave (the
/// port, or the address to bind), never the system call: `port 8080 is already in use`.
public struct BindFailure: Error, CustomStringConvertible {
  /// Which of the server's ports failed: listen's own (`--port`) or the proxy's (`--proxy-port`).
  public enum Role: Sendable { case listen, proxy }

  /// Which port failed.
  public let role: Role
  /// The address asked for (`--bind`).
  public let host: String
  /// The port asked for.
  public let port: Int
  /// Whether the address, not the port, is what the user should change.
  public let isAddressProblem: Bool
  /// The sentence, without the command line.
  public let description: String

  /// The failure of binding `host:port` for `role`, from NIO's `error`.
  init(_ error: any Error, role: Role, host: String, port: Int) {
    self.role = role
    self.host = host
    self.port = port
    let unknownHost: Bool
    switch error {
    case SocketAddressError.unknown, is SocketAddressError.UnknownHost, is UnresolvedHost: unknownHost = true
    default: unknownHost = false
    }
    if unknownHost {
      isAddressProblem = true
      description = "\(host) is not an address or host name this machine knows"
      return
    }
    let code = (error as? IOError)?.errnoCode
    isAddressProblem = code == EADDRNOTAVAIL
    switch code {
    case EADDRINUSE?: description = "port \(port) is already in use"
    case EADDRNOTAVAIL?: description = "\(host) is not an address of this machine"
    case EACCES?: description = "port \(port) needs more privileges than this user has"
    default: description = "cannot listen on \(host):\(port): \(SystemErrorWords.reason(error))"
    }
  }

  /// The option that names what failed as the user gave it: `--port 7531`, `--proxy-port 8888` or
  /// `--bind ADDRESS`.
  public var option: String {
    if isAddressProblem { return "--bind \(host)" }
    return role == .listen ? "--port \(port)" : "--proxy-port \(port)"
  }
}
