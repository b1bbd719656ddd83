import Foundation
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
  /// Closes the connection.
  func close()
}

/// A TCP connection over POSIX sockets (Linux, and Apple platforms when Network is unavailable).
final class SocketTransport: LineTransport {
  private var descriptor: Int32
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
      throw SystemError("resolve", "\(host):\(port)", code: EHOSTUNREACH)
    }
    defer { freeaddrinfo(list) }
    var lastError = SystemError("connect", peer, code: ECONNREFUSED)
    var candidate: UnsafeMutablePointer<addrinfo>? = first
    while let info = candidate {
      candidate = info.pointee.ai_next
      let socketDescriptor = socket(
        info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
      guard socketDescriptor >= 0 else { continue }
      if Self.connect(socketDescriptor, info.pointee.ai_addr, info.pointee.ai_addrlen, timeout: timeout) {
        descriptor = socketDescriptor
        Self.configure(socketDescriptor)
        return
      }
      lastError = SystemError("connect", peer)
      closeSocket(socketDescriptor)
    }
    throw lastError
  }

  private static func connect(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: socklen_t, timeout: TimeInterval
  ) -> Bool {
    let flags = fcntl(descriptor, F_GETFL, 0)
    _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    defer { _ = fcntl(descriptor, F_SETFL, flags) }
    #if canImport(Glibc) || canImport(Musl)
      let result = connectSocket(descriptor, address, length)
    #else
      let result = Darwin.connect(descriptor, address, length)
    #endif
    if result == 0 { return true }
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
    guard descriptor >= 0 else { throw SystemError("send", peer, code: EBADF) }
    var offset = 0
    while offset < bytes.count {
      let sent = bytes.withUnsafeBytes { raw in
        #if canImport(Darwin)
          Darwin.send(descriptor, raw.baseAddress! + offset, raw.count - offset, 0)
        #else
          sendBytes(descriptor, raw.baseAddress! + offset, raw.count - offset, Int32(MSG_NOSIGNAL))
        #endif
      }
      if sent < 0 {
        if errno == EINTR { continue }
        throw SystemError("send", peer)
      }
      offset += sent
    }
  }

  /// Whether the peer closed its side (checked without blocking before a batch is sent).
  var peerClosed: Bool {
    guard descriptor >= 0 else { return true }
    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
    guard poll(&poller, 1, 0) == 1 else { return false }
    if poller.revents & Int16(POLLHUP | POLLERR) != 0 { return true }
    var byte: UInt8 = 0
    return recv(descriptor, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0
  }

  func close() {
    guard descriptor >= 0 else { return }
    closeSocket(descriptor)
    descriptor = -1
  }

  deinit { close() }
}

#if canImport(Glibc)
  private func closeSocket(_ descriptor: Int32) { _ = Glibc.close(descriptor) }
  private func connectSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
    -> Int32
  {
    Glibc.connect(descriptor, address, length)
  }
  private func sendBytes(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32)
    -> Int
  {
    Glibc.send(descriptor, pointer, count, flags)
  }
#elseif canImport(Musl)
  private func closeSocket(_ descriptor: Int32) { _ = Musl.close(descriptor) }
  private func connectSocket(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t)
    -> Int32
  {
    Musl.connect(descriptor, address, length)
  }
  private func sendBytes(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int, _ flags: Int32)
    -> Int
  {
    Musl.send(descriptor, pointer, count, flags)
  }
#else
  private func closeSocket(_ descriptor: Int32) { _ = Darwin.close(descriptor) }
#endif
