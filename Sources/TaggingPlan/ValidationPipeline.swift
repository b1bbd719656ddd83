import Foundation
import TagscopeInspector

/// Validates records on a background thread while the caller goes on reading and decoding, so
/// validating a recording costs little more wall time than reading it.
///
/// Records are handed over in batches through a bounded queue (the reader waits when the
/// validator falls behind, so memory stays bounded). Call ``add(_:)`` from one thread, then
/// ``finish()`` once.
final class ValidationPipeline: @unchecked Sendable {
  private let condition = NSCondition()
  private var queue: [[Record]] = []
  private var closed = false
  private let capacity: Int
  private let batchSize: Int
  private var pending: [Record] = []
  private let finished = DispatchSemaphore(value: 0)
  // Owned by the validating thread until `finished` is signalled.
  private var validator: PlanValidator
  private var violations: [PlanViolation] = []

  /// A pipeline validating against `plan`; its thread starts at once.
  init(plan: Plan, batchSize: Int = 512, capacity: Int = 8) {
    validator = PlanValidator(plan: plan)
    self.batchSize = batchSize
    self.capacity = capacity
    pending.reserveCapacity(batchSize)
    let thread = Thread { [self] in consume() }
    thread.name = "tagscope.validate"
    thread.start()
  }

  /// Queues one record.
  func add(_ record: Record) {
    pending.append(record)
    if pending.count >= batchSize {
      push(pending)
      pending = []
      pending.reserveCapacity(batchSize)
    }
  }

  /// Waits for every queued record to be validated; returns the violations, in record order, and
  /// the validator (coverage, record count).
  func finish() -> (violations: [PlanViolation], validator: PlanValidator) {
    if !pending.isEmpty { push(pending) }
    pending = []
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    finished.wait()
    return (violations, validator)
  }

  private func push(_ batch: [Record]) {
    condition.lock()
    while queue.count >= capacity { condition.wait() }
    queue.append(batch)
    condition.broadcast()
    condition.unlock()
  }

  private func consume() {
    while true {
      condition.lock()
      while queue.isEmpty && !closed { condition.wait() }
      if queue.isEmpty {
        condition.unlock()
        break
      }
      let batch = queue.removeFirst()
      condition.broadcast()
      condition.unlock()
      for record in batch { violations.append(contentsOf: validator.validate(record)) }
    }
    finished.signal()
  }
}
