import Foundation

/// A named thread running one body, that can be asked to stop and waited for: the one way
/// Tagscope's long-running workers (the live session, plan checks, indexing, effect runners)
/// start, pause and end.
///
/// ```swift
/// let worker = WorkerThread(name: "tagscope.example") { worker in
///   while !worker.isStopping { _ = worker.pause(seconds: 0.05) }
/// }
/// worker.stop()  // asks the body to end and waits until it has
/// ```
public final class WorkerThread: @unchecked Sendable {
  private let condition = NSCondition()
  private var stopping = false
  private var running = true

  /// Starts `body` on a new thread named `name` (with `qualityOfService` and a stack of
  /// `stackSize` bytes when given).
  public init(
    name: String, qualityOfService: QualityOfService? = nil, stackSize: Int? = nil,
    _ body: @escaping @Sendable (WorkerThread) -> Void
  ) {
    let thread = Thread { [self] in
      body(self)
      condition.lock()
      running = false
      condition.broadcast()
      condition.unlock()
    }
    thread.name = name
    if let qualityOfService { thread.qualityOfService = qualityOfService }
    if let stackSize { thread.stackSize = stackSize }
    thread.start()
  }

  /// Whether a stop was asked for: the body checks it between units of work.
  public var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }

  /// Whether the body is still running.
  public var isRunning: Bool {
    condition.lock()
    defer { condition.unlock() }
    return running
  }

  /// Asks the body to stop (it sees ``isStopping``, and ``pause(seconds:)`` returns at once).
  public func requestStop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
  }

  /// Waits until the body has returned.
  public func join() {
    condition.lock()
    while running { condition.wait() }
    condition.unlock()
  }

  /// Asks the body to stop and waits until it has.
  public func stop() {
    requestStop()
    join()
  }

  /// Sleeps up to `seconds`, or until a stop is asked for; returns whether one was. For the body.
  @discardableResult
  public func pause(seconds: Double) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    if !stopping { _ = condition.wait(until: Date().addingTimeInterval(seconds)) }
    return stopping
  }
}
