import Foundation
import SystemPackage
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// A connected byte stream the ``RemoteSink`` writes lines to; used from one thread at a time.
protocol LineTransport: AnyObject {
  /// Whether the connection is known to be closed by the peer.
  var peerClosed: Bool { get }
  /// Sends all bytes or throws (the connection is then unusable).
  func send(_ bytes: [UInt8]) throws(SystemError)
  /// What the peer sent that has arrived, without waiting (acknowledgements).
  func receiveAvailable() -> [UInt8]
  /// Closes the connection.
  func close()
}

/// A TCP connection over POSIX sockets (Linux, and Apple platforms when Network is unavailable).
final class SocketTransport: LineTransport {
  private var descriptor: FileDescriptor?
  private let peer: String

  /// Connects to `host:port` within `timeout` seconds.
  init(host: String, port: UInt16, timeout: TimeInterval) throws(SystemError) {
    peer = "\(host):\(port)"
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    #if canImport(Glibc) || canImport(Musl)
      hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
    #else
      hints.ai_socktype = SOCK_STREAM
    #endif
    var list: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &list)
    guard status == 0, let first = list else {
      throw SystemError("resolve", "\(host):\(port)", .noRouteToHost)
    }
    defer { freeaddrinfo(list) }
    var lastError = SystemError("connect", peer, .connectionRefused)
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      candidate = info.pointee.ai_next
      let socketDescriptor = socket(
        info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard socketDescriptor >= 0 else { continue }
      let opened = FileDescriptor(rawValue: socketDescriptor)
      if Self.attempt(socketDescriptor, info.pointee.ai_addr, info.pointee.ai_addrlen, within: timeout) {
        descriptor = opened
        Self.configure(socketDescriptor)
        return
      }
      lastError = SystemError("connect", peer, Errno(rawValue: errno))
      try? opened.close()
    }
    throw lastError
  }

  private static func attempt(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t,
    within timeout: TimeInterval
  ) -> Bool {
    let flags = fcntl(descriptor, F_GETFL, 0)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    if connect(descriptor, address, length) == 0 { return true }
    guard errno == EINPROGRESS else { return false }
    var poller = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
    guard poll(&poller, 1, Int32(timeout * 1000)) == 1 else {
      errno = ETIMEDOUT
      return false
    }
    var socketError: Int32 = 0
    var size = socklen_t(MemoryLayout<Int32>.size)
    getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &size)
    errno = socketError
    return socketError == 0
  }

  private static func configure(_ descriptor: Int32) {
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    // A stalled peer makes a send fail after 2 s instead of hanging the sink's thread.
    var timeout = timeval(tv_sec: 2, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
  }

  func send(_ bytes: [UInt8]) throws(SystemError) {
    guard let descriptor else { throw SystemError("send", peer, .badFileDescriptor) }
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        Self.send(descriptor.rawValue, raw.baseAddress! + offset, raw.count - offset)
      }
      if sent < 0 {
        if Errno(rawValue: errno) == .interrupted { continue }
        throw SystemError("send", peer, Errno(rawValue: errno))
      }
      offset += sent
    }
  }

  /// `send(2)` without `SIGPIPE` when the peer is gone (`MSG_NOSIGNAL`; `SO_NOSIGPIPE` on Darwin).
  private static func send(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.send(descriptor, pointer, count, 0)
    #else
      Foundation.send(descriptor, pointer, count, Int32(MSG_NOSIGNAL))
    #endif
  }

  func receiveAvailable() -> [UInt8] {
    guard let descriptor = descriptor?.rawValue else { return [] }
    var out: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 4096)
    while true {
      let count = chunk.withUnsafeMutableBytes {
        recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
      }
      guard count > 0 else { break }
      out += chunk[0..<count]
    }
    return out
  }

  /// Whether the peer closed its side (checked without blocking before a batch is sent).
  var peerClosed: Bool {
    guard let descriptor = descriptor?.rawValue else { return true }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) == 1 else { return false }
    if poller.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
  }

  func close() {
    try? descriptor?.close()
    descriptor = nil
  }

  deinit { close() }
}
