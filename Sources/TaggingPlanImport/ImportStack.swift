import Foundation
import TagscopeRecording

/// The thread an import's recursive walks run on, whatever thread calls it: reading nests as deep
/// as ``DocumentReader/maximumDepth``, converting as deep as ``SchemaConverter/depthLimit``
/// schemas, and a debug build takes about 25 KiB of stack per schema level (2 MiB at the limit):
/// more than a secondary thread's 512 KiB. ``run(_:)`` runs its body on a thread of ``size``
/// bytes (once: a body already there runs at once) and waits for it.
enum ImportStack {
  /// The import thread's stack: several times what the deepest walk allowed takes.
  static let size = 16 << 20
  private static let marker = "tagscope.import.stack"

  /// `body`'s result, computed on an import thread.
  static func run<Value, Failure: Error>(_ body: () throws(Failure) -> Value) throws(Failure) -> Value {
    if Thread.current.threadDictionary[marker] != nil { return try body() }
    let result = withoutActuallyEscaping(body) { escapable in
      let handoff = Handoff(escapable)
      let worker = WorkerThread(name: "tagscope.import", stackSize: size) { _ in
        Thread.current.threadDictionary[marker] = true
        handoff.run()
      }
      worker.join()
      return handoff.result
    }
    // The worker ran the body before `join` returned.
    guard let result else { preconditionFailure("the import thread ended without a result") }
    return try result.get()
  }
}

/// A body handed to the import thread and its result handed back; ``ImportStack/run(_:)`` reads
/// the result only after the thread ended.
private final class Handoff<Value, Failure: Error>: @unchecked Sendable {
  /// Let go once run: the thread may outlive `withoutActuallyEscaping`, which checks that
  /// nothing holds the body any more.
  private var body: (() throws(Failure) -> Value)?
  private(set) var result: Result<Value, Failure>?

  init(_ body: @escaping () throws(Failure) -> Value) { self.body = body }

  func run() {
    guard let body else { return }
    self.body = nil
    result = Result { () throws(Failure) -> Value in try body() }
  }
}
