import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Wakes the event loop from other threads (records arrived, quit requested) through a pipe the
/// loop waits on together with the keyboard: no polling, no busy loop.
///
/// `signal()` writes at most one byte until the loop drains it, so 10,000 records a second cost a
/// handful of writes.
public final class Wakeup: @unchecked Sendable {
  let readDescriptor: Int32
  private let writeDescriptor: Int32
  private let lock = NSLock()
  private var pending = false
  private var quitRequested = false

  /// A wakeup pipe.
  public init() {
    var descriptors: [Int32] = [-1, -1]
    if pipe(&descriptors) != 0 { descriptors = [-1, -1] }
    readDescriptor = descriptors[0]
    writeDescriptor = descriptors[1]
    for descriptor in descriptors where descriptor >= 0 {
      _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    }
  }

  deinit {
    close(readDescriptor)
    close(writeDescriptor)
  }

  /// Something changed (new records): the loop wakes and looks.
  public func signal() {
    lock.lock()
    let write = !pending
    pending = true
    lock.unlock()
    if write { poke() }
  }

  /// Asks the loop to end (SIGINT, SIGTERM, the producer finished with nothing to show).
  public func requestQuit() {
    lock.lock()
    quitRequested = true
    lock.unlock()
    poke()
  }

  private func poke() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Empties the pipe; returns whether a quit was requested.
  func drain() -> Bool {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readDescriptor, &buffer, buffer.count) > 0 {}
    lock.lock()
    defer { lock.unlock() }
    pending = false
    return quitRequested
  }

  /// Whether a quit was requested.
  var isQuitRequested: Bool {
    lock.lock()
    defer { lock.unlock() }
    return quitRequested
  }
}
