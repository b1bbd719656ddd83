import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The event loop's one inbox: other threads post messages (an effect's results) or say that the
/// source changed (records arrived, plan results moved) or that the loop should quit, and wake it
/// through a pipe it waits on together with the keyboard: no polling, no busy loop.
///
/// The pipe gets at most one byte until the loop drains it, so 10,000 records a second cost a
/// handful of writes.
public final class Wakeup: @unchecked Sendable {
  /// What the loop takes from the inbox at once.
  struct Delivery {
    /// Results posted, in order: the effect that ran and the messages it produced.
    var results: [(effect: Effect, messages: [Msg])] = []
    /// Whether the source said it changed since the last drain.
    var sourceChanged = false
    /// Whether a quit was requested.
    var quit = false
  }

  let readDescriptor: Int32
  private let writeDescriptor: Int32
  private let lock = NSLock()
  private var pending = false
  private var delivery = Delivery()

  /// A wakeup pipe with an empty inbox.
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

  /// Something changed in the source (new records, plan results): the loop wakes and asks for the
  /// header facts and the count.
  public func signal() {
    update { $0.sourceChanged = true }
  }

  /// Asks the loop to end (SIGINT, SIGTERM, the producer finished with nothing to show).
  public func requestQuit() {
    update { $0.quit = true }
  }

  /// Posts `messages`, the results of `effect`, for the loop to apply in order.
  func post(_ messages: [Msg], from effect: Effect) {
    update { $0.results.append((effect, messages)) }
  }

  private func update(_ change: (inout Delivery) -> Void) {
    lock.lock()
    change(&delivery)
    let write = !pending
    pending = true
    lock.unlock()
    if write { poke() }
  }

  private func poke() {
    var byte: UInt8 = 1
    _ = write(writeDescriptor, &byte, 1)
  }

  /// Empties the pipe and the inbox; returns what was in it.
  func drain() -> Delivery {
    var buffer = [UInt8](repeating: 0, count: 64)
    while read(readDescriptor, &buffer, buffer.count) > 0 {}
    lock.lock()
    defer { lock.unlock() }
    pending = false
    let taken = delivery
    delivery = Delivery(quit: taken.quit)
    return taken
  }

  /// Whether a quit was requested.
  var isQuitRequested: Bool {
    lock.lock()
    defer { lock.unlock() }
    return delivery.quit
  }
}
