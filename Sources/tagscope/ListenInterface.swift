import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline
import TagscopeUI

/// `tagscope listen` (and `tagscope proxy`) in the debugger: the server enqueues into a live
/// session, which writes this run's live timeline and `--record` as the headless path does (an
/// existing recording continued, never truncated: ``LiveRecording``), checks the plan when one is
/// given and wakes the debugger; sources are listed in the header and `s` shows one after the other.
enum ListenInterface {
  /// Runs the server and the debugger until the user quits or a signal arrives; returns a message
  /// for exit code 2.
  static func run(options: ListenOptions, plan: String?) async -> String? {
    let wakeup = Wakeup()
    let timeline: Timeline
    do {
      timeline = try Timeline.live(
        header: RecordingHeader(
          app: "tagscope listen", device: "\(options.host):\(options.port)", started: Date()))
    } catch {
      return "cannot write the session's timeline: \(error)"
    }
    defer { timeline.release(keepTemporary: false) }
    // Notices before the debugger takes the screen stay on standard error, shown after it quits.
    let notices = NoticeList()
    let store: any LiveStore
    let configuration: ListenConfiguration
    do {
      (store, configuration) = try LiveRecording.attach(to: timeline, options: options) { notices.add($0) }
    } catch {
      return "\(error)"
    }
    if let warning = LiveRecording.publicBindWarning(options) { notices.add(warning) }
    let checker: PlanChecker?
    do {
      checker = try PlanChecker.loadPlan(path: plan, demo: false).map {
        PlanChecker(plan: $0, timeline: timeline) { wakeup.signal() }
      }
    } catch {
      return "\(error)"
    }
    let connections = SourceConnections()
    let session = LiveSession(store: store, checker: checker) { update in
      connections.note(update.events)
      wakeup.signal()
    }
    let server: ListenServer
    do {
      let query = QueryService(session: session, timeline: timeline, recordingPath: options.recordPath)
      server = try await ListenServer.start(configuration: configuration, ingest: session, query: query)
    } catch {
      session.close()
      return (error as? BindFailure)?.sentence(proxy: options.proxy != nil)
        ?? "cannot listen on \(options.host):\(options.port): \(error)"
    }
    do {
      for log in options.logs { try server.follow(log) }
    } catch {
      try? await server.shutdown()
      session.close()
      return error.description
    }
    let label =
      "listening on \(options.host):\(server.port)" + server.proxyDescription
      + (options.recordPath.map { ", recording to \(TerminalText.sanitize($0))" } ?? "")
      + (options.token == nil && LiveRecording.publicBindWarning(options) != nil
        ? " · no token: open to the network" : "")
    for notice in notices.all { StandardError.write(TerminalText.sanitize(notice) + "\n") }
    let source = InspectorTimelineSource(
      timeline: timeline, sourceLabel: label, plan: checker, connections: { connections.snapshot() })
    let result = await Debugger.runDetached(source, mode: .live, wakeup: wakeup)
    try? await server.shutdown()
    session.close()
    if case .failure(let error) = result { return error.description }
    return nil
  }
}

/// Notices gathered while a live session starts, to print before the debugger takes the screen.
final class NoticeList: @unchecked Sendable {
  private let lock = NSLock()
  private var notices: [String] = []

  func add(_ notice: String) { lock.withLock { notices.append(notice) } }

  var all: [String] { lock.withLock { notices } }
}
