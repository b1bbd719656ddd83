import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client connection for the socket-level fuzzing passes: writes a stream in pieces, ends it the
/// way a case says (half-close, close, reset) and reads until the server closes, telling a server
/// that closed from one that went silent past the hang guard.
final class FuzzSocket {
  /// How a case ends its side of the connection.
  enum Ending: String, CaseIterable {
    /// `shutdown(SHUT_WR)` after the whole stream: the server sees the end of input.
    case halfClose
    /// `close` after a prefix of the stream, reading nothing.
    case close
    /// A reset (`SO_LINGER` 0) after a prefix of the stream.
    case reset
  }

  /// What a read to the end found.
  enum ReadEnd: Equatable {
    /// The server closed the connection.
    case closed
    /// The server reset the connection: the kernel does so when it closes with bytes of the
    /// client's still unread, and what it wrote last may then be lost.
    case reset
    /// Nothing came within the hang guard.
    case silent
  }

  private var descriptor: Int32

  /// A connection to `port` on loopback; reads wait at most `hangGuard` seconds.
  init(port: Int, hangGuard: Int = 30) throws {
    #if canImport(Glibc)
      descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(.EMFILE) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard result == 0 else {
      close(descriptor)
      descriptor = -1
      throw POSIXError(.ECONNREFUSED)
    }
    var interval = timeval(tv_sec: hangGuard, tv_usec: 0)
    setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &interval, socklen_t(MemoryLayout<timeval>.size))
    var one: Int32 = 1
    setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
  }

  deinit { if descriptor >= 0 { close(descriptor) } }

  /// Writes `bytes` in pieces ending at `splits` (offsets into `bytes`), one write each; returns
  /// whether all of it was written (the server may close first).
  @discardableResult
  func send(_ bytes: [UInt8], splits: [Int] = []) -> Bool {
    var start = 0
    for end in (splits.filter { $0 > 0 && $0 < bytes.count }.sorted() + [bytes.count]) where end > start {
      var offset = start
      while offset < end {
        #if canImport(Glibc)
          let flags = Int32(MSG_NOSIGNAL)
        #else
          let flags: Int32 = 0
        #endif
        let written = bytes[offset..<end].withUnsafeBytes {
          Foundation.send(descriptor, $0.baseAddress, $0.count, flags)
        }
        if written <= 0 { return false }
        offset += written
      }
      start = end
    }
    return true
  }

  /// Ends the client's side as `ending` says.
  func end(_ ending: Ending) {
    switch ending {
    case .halfClose:
      shutdown(descriptor, Int32(SHUT_WR))
    case .close:
      close(descriptor)
      descriptor = -1
    case .reset:
      var value = linger(l_onoff: 1, l_linger: 0)
      setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
      close(descriptor)
      descriptor = -1
    }
  }

  /// Reads what is there now and after, appending to `received`, until `enough` says so, the
  /// server closes, or the hang guard passes with nothing read.
  func read(into received: inout [UInt8], until enough: ([UInt8]) -> Bool = { _ in false }) -> ReadEnd? {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while !enough(received) {
      let count = chunk.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress, $0.count) }
      if count > 0 {
        received += chunk[0..<count]
        continue
      }
      if count == 0 { return .closed }
      if errno == ECONNRESET { return .reset }
      return .silent
    }
    return nil
  }
}
