import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one place tagscope handles termination signals: from creation until ``cancel()`` the given
/// signals no longer kill the process but call the handler (on a background queue), so every
/// command can stop cleanly and flush its recording.
public final class TerminationSignals: @unchecked Sendable {
  /// SIGINT and SIGTERM: what a headless run stops on.
  public static let standard: [Int32] = [SIGINT, SIGTERM]
  /// Also SIGHUP, for the debugger (its terminal went away).
  public static let interactive: [Int32] = [SIGINT, SIGTERM, SIGHUP]

  private let numbers: [Int32]
  private let lock = NSLock()
  private var sources: [any DispatchSourceSignal] = []

  /// Catches `numbers` and calls `handler` with each one received.
  public init(_ numbers: [Int32] = TerminationSignals.standard, handler: @escaping @Sendable (Int32) -> Void)
  {
    self.numbers = numbers
    sources = numbers.map { number in
      signal(number, SIG_IGN)
      let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
      source.setEventHandler { handler(number) }
      source.resume()
      return source
    }
  }

  deinit { cancel() }

  /// Gives the signals their default action back.
  public func cancel() {
    lock.lock()
    let active = sources
    sources = []
    lock.unlock()
    guard !active.isEmpty else { return }
    for source in active { source.cancel() }
    for number in numbers { signal(number, SIG_DFL) }
  }

  /// Catches `numbers` from now on; the returned wait ends at the first of them (then they are
  /// restored).
  public static func catching(_ numbers: [Int32] = TerminationSignals.standard) -> Wait {
    let (stream, continuation) = AsyncStream<Int32>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let signals = TerminationSignals(numbers) { continuation.yield($0) }
    return Wait(signals: signals, stream: stream)
  }

  /// A wait for the first caught signal.
  public struct Wait: Sendable {
    let signals: TerminationSignals
    let stream: AsyncStream<Int32>

    /// Returns the first signal received, and restores the default actions.
    @discardableResult
    public func next() async -> Int32? {
      var received: Int32?
      for await number in stream {
        received = number
        break
      }
      signals.cancel()
      return received
    }
  }
}
