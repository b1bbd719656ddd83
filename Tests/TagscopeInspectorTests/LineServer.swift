import Foundation
import TagscopeTestSupport

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A real TCP server on 127.0.0.1 for tests: accepts connections one after the other and keeps
/// every line received, with its connection number.
final class LineServer: @unchecked Sendable {
  struct Received {
    var line: String
    var connection: Int
  }

  let port: UInt16
  private let listener: Int32
  private let lock = NSLock()
  private var received: [Received] = []
  private var current: Int32 = -1
  private var stopped = false
  /// Signalled when the accept thread ends: the listener is closed only after it, so that thread
  /// never accepts on a descriptor number that went to the next test's server.
  private let acceptEnded = DispatchSemaphore(value: 0)

  /// Listens on `port` (0 picks a free one).
  init(port: UInt16 = 0) throws {
    #if canImport(Glibc)
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let listener = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    self.listener = listener
    var one: Int32 = 1
    setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
      }
    }
    guard bound == 0, listen(listener, 4) == 0 else {
      close(listener)
      throw POSIXError(.EADDRINUSE)
    }
    var actual = sockaddr_in()
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    _ = withUnsafeMutablePointer(to: &actual) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
    }
    self.port = UInt16(bigEndian: actual.sin_port)
    let thread = Thread { [self] in acceptLoop() }
    thread.start()
  }

  /// A port nothing listens on (bound, read and released).
  static func freePort() throws -> UInt16 {
    let server = try LineServer()
    let port = server.port
    server.stop()
    return port
  }

  private func acceptLoop() {
    defer { acceptEnded.signal() }
    var connection = 0
    while true {
      let client = accept(listener, nil, nil)
      if client < 0 { return }
      connection += 1
      lock.lock()
      if stopped {
        lock.unlock()
        close(client)
        return
      }
      current = client
      lock.unlock()
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 65_536)
      while true {
        let got = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
        if got <= 0 { break }
        pending.append(contentsOf: buffer[0..<got])
        while let newline = pending.firstIndex(of: 0x0A) {
          let line = String(decoding: pending[0..<newline], as: UTF8.self)
          pending.removeSubrange(0...newline)
          lock.lock()
          received.append(Received(line: line, connection: connection))
          lock.unlock()
        }
      }
      close(client)
      lock.lock()
      current = -1
      let done = stopped
      lock.unlock()
      if done { return }
    }
  }

  /// Lines received so far.
  var lines: [Received] {
    lock.lock()
    defer { lock.unlock() }
    return received
  }

  /// Closes the current connection from the server's side.
  func dropConnection() {
    lock.lock()
    if current >= 0 { shutdown(current, Int32(SHUT_RDWR)) }
    lock.unlock()
  }

  /// Waits until `condition` holds on the lines (see ``eventually``).
  func wait(until condition: ([Received]) -> Bool) -> Bool { eventually { condition(lines) } }

  /// Stops listening and drops the connection. Closes the listener once: `stop()` then `deinit`
  /// (which the accept thread may run later, after the descriptor's number went to another
  /// test's socket) must not close it twice.
  func stop() {
    lock.lock()
    let first = !stopped
    stopped = true
    if current >= 0 { shutdown(current, Int32(SHUT_RDWR)) }
    lock.unlock()
    guard first else { return }
    shutdown(listener, Int32(SHUT_RDWR))
    acceptEnded.wait()
    close(listener)
  }

  deinit { stop() }
}
