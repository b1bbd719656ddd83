import Foundation
import TagscopeRecording

/// The live session's group commit: acknowledgements of written batches wait on their own thread
/// for one `fsync` of the store, which covers every batch written while the previous one ran.
///
/// The session's worker hands over a batch's acknowledgements once its lines are written and goes
/// on writing the next batches; this thread takes everything handed over so far, syncs once and
/// acknowledges it all (none once a write failed: clients keep those records). So a slow disk
/// costs one `fsync` per round of waiting requests, never one per request, and never holds the
/// writing back.
final class GroupCommit: @unchecked Sendable {
  private let store: any LiveStore
  private let condition = NSCondition()
  private var waiting: [@Sendable () -> Void] = []
  private var syncing = false
  private var closed = false
  private var syncs = 0
  private var worker: WorkerThread?

  /// Starts the syncing thread for `store`.
  init(store: any LiveStore) {
    self.store = store
    worker = WorkerThread(name: "tagscope.sync") { [self] _ in run() }
  }

  /// Queues `acknowledgements` of lines already written: called after the next `fsync`.
  func acknowledge(_ acknowledgements: [@Sendable () -> Void]) {
    guard !acknowledgements.isEmpty else { return }
    condition.lock()
    waiting += acknowledgements
    condition.broadcast()
    condition.unlock()
  }

  /// The `fsync` calls made so far.
  var syncCount: Int {
    condition.lock()
    defer { condition.unlock() }
    return syncs
  }

  /// Waits until every acknowledgement handed over so far was synced and called.
  func waitUntilIdle() {
    condition.lock()
    while !waiting.isEmpty || syncing { condition.wait() }
    condition.unlock()
  }

  /// Syncs and acknowledges what is waiting, then stops the thread.
  func close() {
    condition.lock()
    closed = true
    condition.broadcast()
    condition.unlock()
    worker?.join()
  }

  private func run() {
    while let taken = next() {
      store.sync()
      if store.lastWriteError == nil { for done in taken { done() } }
      condition.lock()
      syncing = false
      syncs += 1
      condition.broadcast()
      condition.unlock()
    }
  }

  /// Everything waiting (at least one), or `nil` once closed and empty.
  private func next() -> [@Sendable () -> Void]? {
    condition.lock()
    defer { condition.unlock() }
    while waiting.isEmpty && !closed { condition.wait() }
    guard !waiting.isEmpty else { return nil }
    let taken = waiting
    waiting = []
    syncing = true
    return taken
  }
}
