import Foundation
import TagscopeInspector
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline
import TagscopeUI

/// `tagscope listen` in the debugger: the server feeds a live timeline (recorded to `--record` or
/// a temporary file), checked against the plan when one is given; sources are listed in the header
/// and `s` shows one after the other.
enum ListenInterface {
  /// Runs the server and the debugger until the user quits; throws a message for exit code 2.
  static func run(options: ListenOptions, plan: String?) throws -> String? {
    let wakeup = Wakeup()
    let timeline: Timeline
    do {
      timeline = try Timeline.live(
        recordingTo: options.recordPath.map { URL(fileURLWithPath: $0) },
        header: RecordingHeader(
          app: "tagscope listen", device: "\(options.host):\(options.port)", started: Date()))
    } catch {
      return "cannot write the recording \(options.recordPath ?? "(temporary)"): \(error)"
    }
    defer { timeline.release(keepTemporary: false) }
    let checker: PlanChecker?
    do {
      checker = try PlanChecker.loadPlan(path: plan, demo: false).map {
        PlanChecker(plan: $0, timeline: timeline)
      }
    } catch {
      return "\(error)"
    }
    let feed = ListenFeed(sink: CheckingSink(timeline: timeline, checker: checker, wakeup: wakeup))
    let started = ServerStart()
    Task {
      do {
        started.server = try await ListenServer.start(configuration: options.configuration) {
          feed.receive($0)
        }
      } catch {
        started.failure = "cannot listen on \(options.host):\(options.port): \(error)"
      }
      started.done.signal()
    }
    started.done.wait()
    guard let server = started.server else { return started.failure }
    let label = "listening on \(options.host):\(server.port)"
    let result: Result<LoopStats, TerminalError>
    do {
      let source = InspectorTimelineSource(timeline: timeline, sourceLabel: label, plan: checker)
      result = .success(try TerminalUI.run(timeline: source, mode: .live, wakeup: wakeup))
    } catch {
      result = .failure(error)
    }
    let stopped = DispatchSemaphore(value: 0)
    Task {
      try? await server.shutdown()
      stopped.signal()
    }
    stopped.wait()
    feed.flush()
    if case .failure(let error) = result { return error.description }
    return nil
  }
}

/// Hands what the server delivers (from any of its event loops) to the timeline sink one batch at a
/// time, in arrival order.
private final class ListenFeed: @unchecked Sendable {
  private let lock = NSLock()
  private let sink: CheckingSink

  init(sink: CheckingSink) { self.sink = sink }

  func receive(_ event: ListenEvent) {
    var items: [SinkItem] = []
    switch event {
    case .records(let records):
      items = records.map { record in
        var line: [UInt8] = []
        RecordLineEncoder.appendLine(record, to: &line)
        return .record(record, line: line)
      }
    case .dropped(_, let marker):
      var line: [UInt8] = []
      RecordLineEncoder.appendLine(marker, to: &line)
      items = [.dropped(marker, line: line)]
    default: return
    }
    lock.lock()
    sink.receive(items)
    lock.unlock()
  }

  func flush() {
    lock.lock()
    sink.flush()
    lock.unlock()
  }
}

/// The server, or why it did not start; written by the starting task before it signals.
private final class ServerStart: @unchecked Sendable {
  let done = DispatchSemaphore(value: 0)
  var server: ListenServer?
  var failure: String?
}
