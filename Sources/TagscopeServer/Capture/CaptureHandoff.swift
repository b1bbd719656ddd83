import Foundation

/// The bounded, ordered hand-off between ``CaptureImport``'s reading thread and the thread that
/// delivers and writes: chunks of ``CaptureStep``s in the capture's order, at most ``capacity``
/// waiting (the reader waits for room, so a capture of any size takes bounded memory), then the
/// walk's end. Either side can stop the other: the reader by ending, the writer by cancelling.
final class CaptureHandoff: @unchecked Sendable {
  /// What the writer takes next.
  enum Taken {
    /// The next steps, in order.
    case steps([CaptureStep])
    /// The walk is over: the problem that ended it early, if any, or the error it threw.
    case end(Result<HARProblem?, any Error>)
  }

  /// The most chunks waiting.
  let capacity: Int
  private let condition = NSCondition()
  private var chunks: [[CaptureStep]] = []  // a few at most: removing the first is cheap
  private var end: Result<HARProblem?, any Error>?
  private var cancelled = false

  /// A hand-off holding at most `capacity` chunks.
  init(capacity: Int) {
    self.capacity = max(1, capacity)
  }

  /// Hands on `steps`, waiting while ``capacity`` chunks wait; `false` once the writer cancelled
  /// (the reader then stops).
  func put(_ steps: [CaptureStep]) -> Bool {
    condition.lock()
    defer { condition.unlock() }
    while chunks.count >= capacity && !cancelled { condition.wait() }
    guard !cancelled else { return false }
    chunks.append(steps)
    condition.broadcast()
    return true
  }

  /// Ends the walk with `outcome`, after the chunks already handed on.
  func finish(_ outcome: Result<HARProblem?, any Error>) {
    condition.lock()
    end = outcome
    condition.broadcast()
    condition.unlock()
  }

  /// The next chunk, or the end once every chunk was taken; waits for either.
  func take() -> Taken {
    condition.lock()
    defer { condition.unlock() }
    while chunks.isEmpty && end == nil { condition.wait() }
    guard !chunks.isEmpty else { return .end(end ?? .success(nil)) }
    condition.broadcast()
    return .steps(chunks.removeFirst())
  }

  /// Tells the reader the writer stopped: its waiting ``put(_:)`` and every later one return
  /// `false`.
  func cancel() {
    condition.lock()
    cancelled = true
    condition.broadcast()
    condition.unlock()
  }
}
