import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline
import TagscopeUI

/// `tagscope listen` (and `tagscope proxy`) in the debugger: an observer of the one live-session
/// root (``LiveSessionRoot``), as the headless printer is; it wakes the debugger on each update and
/// lists the sources in the header (`s` shows one after the other).
enum ListenInterface {
  /// Runs the session and the debugger until the user quits or a signal arrives; returns a
  /// message for exit code 2.
  static func run(options: ListenOptions, plan: Plan?) async -> String? {
    let wakeup = Wakeup()
    let connections = SourceConnections()
    // Notices before the debugger takes the screen stay on standard error, shown after it quits.
    let notices = NoticeList()
    let ended = EndedInput()
    let observer = LiveObserver(
      update: { update in
        connections.note(update.events)
        for case .inputEnded(let source) in update.events { ended.note(source) }
        wakeup.signal()
      }, planChanged: { wakeup.signal() }, notice: { notices.add($0) })
    let parts: LiveSessionParts
    do {
      parts = try await LiveSessionRoot.start(
        LiveSessionOptions(listen: options, plan: plan), observer: observer)
    } catch {
      return (error as? BindFailure)?.sentence(proxy: options.proxy != nil) ?? "\(error)"
    }
    let label =
      parts.description
      + (options.token != nil
        ? ConnectHint.tokenRequired
        : LiveRecording.publicBindWarning(options) != nil ? " · no token: open to the network" : "")
    let shown = notices.print()
    let source = InspectorTimelineSource(
      timeline: parts.timeline, sourceLabel: label, plan: parts.checker,
      connections: { connections.snapshot() }, ended: { ended.sentence },
      delivery: parts.session.delivery.map(LedgerDeliveryFeed.init))
    let result = await Debugger.runDetached(source, mode: .live, wakeup: wakeup)
    try? await parts.shutdown()
    notices.print(after: shown)
    if case .failure(let error) = result { return error.description }
    return nil
  }
}

/// The debugger's words for a log read from standard input that ended, for its status line.
final class EndedInput: @unchecked Sendable {
  private let lock = NSLock()
  private var said: String?

  func note(_ source: String) {
    lock.withLock {
      said = "\(source): standard input ended; listen goes on for apps and SDKs (q quits)"
    }
  }

  var sentence: String? { lock.withLock { said } }
}

/// Notices given while a live session runs: those before the debugger takes the screen print
/// before it, those during it (a failed write of the recording) after it quits.
final class NoticeList: @unchecked Sendable {
  private let lock = NSLock()
  private var notices: [String] = []

  func add(_ notice: String) { lock.withLock { notices.append(notice) } }

  /// Prints the notices after the first `after` to standard error; returns how many there are.
  @discardableResult
  func print(after: Int = 0) -> Int {
    let all = lock.withLock { notices }
    for notice in all.dropFirst(after) { StandardError.write(TerminalText.sanitize(notice) + "\n") }
    return all.count
  }
}
