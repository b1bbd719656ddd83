import Foundation
import TagscopeTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A client connection for the socket-level fuzzing passes, on a ``RawClient``: writes a stream in
/// pieces, ends it the way a case says (half-close, close, reset) and reads until the server
/// closes, telling a server that closed from one that went silent past the hang guard.
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

  /// The connection: its connect, time limits and writes.
  private let client: RawClient

  /// A connection to `port` on loopback; a read or a write waits at most `hangGuard` seconds.
  init(port: Int, hangGuard: Int = 30) throws {
    client = try RawClient(port: port, timeout: TimeInterval(hangGuard))
  }

  /// Writes `bytes` in pieces ending at `splits` (offsets into `bytes`), one write each; returns
  /// whether all of it was written (the server may close first).
  @discardableResult
  func send(_ bytes: [UInt8], splits: [Int] = []) -> Bool { client.send(bytes, splits: splits) }

  /// Ends the client's side as `ending` says.
  func end(_ ending: Ending) {
    switch ending {
    case .halfClose:
      shutdown(client.descriptor, Int32(SHUT_WR))
    case .close:
      client.disconnect()
    case .reset:
      var value = linger(l_onoff: 1, l_linger: 0)
      setsockopt(client.descriptor, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size))
      client.disconnect()
    }
  }

  /// Reads what is there now and after, appending to `received`, until `enough` says so, the
  /// server closes, or the hang guard passes with nothing read.
  func read(into received: inout [UInt8], until enough: ([UInt8]) -> Bool = { _ in false }) -> ReadEnd? {
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while !enough(received) {
      let count = chunk.withUnsafeMutableBytes {
        Foundation.read(client.descriptor, $0.baseAddress, $0.count)
      }
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
