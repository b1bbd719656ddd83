import Foundation
import TagscopeRecording

/// Runs the debugger's effects off the drawing thread: the event loop submits what ``update(_:_:)``
/// asked for, worker threads run them against the source (disk reads, filters, plan edits) and
/// post what they return to the loop's inbox (``Wakeup``), which wakes the loop.
///
/// Two lanes, each in order: the quick loads the screen needs (rows, the selection, the rate), and
/// the long jobs a user asked for (filters, exports, plan entries and the re-check after one), so a
/// filter over a million records or a plan reload never holds the rows back. An effect already
/// waiting in its lane is not queued twice.
final class EffectWorker: @unchecked Sendable {
  private let quick: Lane
  private let long: Lane

  /// A worker running effects against `runner`'s source and posting results to `inbox`.
  init(runner: EffectRunner, inbox: Wakeup) {
    quick = Lane(name: "tagscope.ui.effects", runner: runner, inbox: inbox)
    long = Lane(name: "tagscope.ui.jobs", runner: runner, inbox: inbox)
  }

  /// Queues `effect` behind those of its lane submitted before.
  func submit(_ effect: Effect) {
    (effect.isLong ? long : quick).submit(effect)
  }

  /// Stops both lanes after the effects running now and waits for their threads to end.
  func stop() {
    quick.stop()
    long.stop()
  }

  /// One queue of effects and the thread running them.
  private final class Lane: @unchecked Sendable {
    private let runner: EffectRunner
    private let inbox: Wakeup
    private let condition = NSCondition()
    private var queue: [Effect] = []
    private var stopping = false
    private var worker: WorkerThread?

    init(name: String, runner: EffectRunner, inbox: Wakeup) {
      self.runner = runner
      self.inbox = inbox
      worker = WorkerThread(name: name, qualityOfService: .userInitiated) { [self] _ in run() }
    }

    func submit(_ effect: Effect) {
      condition.lock()
      if !queue.contains(effect) { queue.append(effect) }
      condition.signal()
      condition.unlock()
    }

    func stop() {
      condition.lock()
      stopping = true
      condition.broadcast()
      condition.unlock()
      worker?.join()
    }

    private func run() {
      while true {
        condition.lock()
        while queue.isEmpty && !stopping { condition.wait() }
        if stopping {
          condition.unlock()
          return
        }
        let effect = queue.removeFirst()
        condition.unlock()
        inbox.post(runner.run(effect), from: effect)
      }
    }
  }
}

extension Effect {
  /// Whether it is a job a user asked for that may take long (it runs in its own lane).
  var isLong: Bool {
    switch self {
    case .filter, .export, .draftPlanEntry, .addPlanEntry, .findViolation: return true
    default: return false
    }
  }
}
