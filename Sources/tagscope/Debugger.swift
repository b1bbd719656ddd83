import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeUI

/// Runs the terminal debugger with SIGINT, SIGTERM and SIGHUP handled in the one place tagscope
/// handles signals: each asks the loop to quit, so the caller's clean-up flushes the recording.
enum Debugger {
  /// Shows `source` until the user quits or a signal arrives.
  @discardableResult
  static func run(
    _ source: any TimelineSource, mode: Mode, wakeup: Wakeup, notice: String? = nil
  ) throws(TerminalError) -> LoopStats {
    let signals = TerminationSignals(TerminationSignals.interactive) { _ in wakeup.requestQuit() }
    defer { signals.cancel() }
    return try TerminalUI.run(timeline: source, mode: mode, wakeup: wakeup, notice: notice)
  }

  /// The same on a thread of its own, for async commands: the debugger's loop blocks while it
  /// runs and must not hold one of the concurrency pool's threads.
  static func runDetached(
    _ source: any TimelineSource, mode: Mode, wakeup: Wakeup
  ) async -> Result<LoopStats, TerminalError> {
    await withCheckedContinuation { continuation in
      _ = WorkerThread(name: "tagscope.debugger") { _ in
        do throws(TerminalError) {
          continuation.resume(returning: .success(try run(source, mode: mode, wakeup: wakeup)))
        } catch {
          continuation.resume(returning: .failure(error))
        }
      }
    }
  }
}
