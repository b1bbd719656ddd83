import ArgumentParser
import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// `tagscope replay FILE`: a recording in the debugger, stopped at the first record.
struct ReplayCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "replay",
    abstract: "Step through a recording in the terminal debugger.",
    discussion: """
      Opens stopped at the first record: space plays at recorded speed (+/- change it), . and , step \
      one record, ←/→ seek 10 s, g/G go to the start/end, : jumps to a record number or a time. \
      Screens, Session and Providers show the state as of the selected record. Bad lines are \
      reported with their line number and skipped. --scope NAME opens only the records of that UI \
      test scope (begun and ended through the query API's scope/begin and scope/end).
      """
  )

  @Argument(
    help: "The recording (JSON Lines), a HAR capture (.har, see import-capture), or - for standard input.")
  var file: String

  @Option(help: "Tagging plan (YAML) to check the recording against: violations and coverage are shown.")
  var plan: String?

  @Option(help: "Open only the records of this UI test scope (an unknown name lists the recording's scopes).")
  var scope: String?

  func run() throws {
    let capture = try CaptureInput(file)
    defer { capture.remove() }
    let file = capture.path
    try FileShape.refuseMixUp(
      plans: plan.map { [$0] } ?? [], recordings: [file],
      usage: "tagscope replay RECORDING [--plan PLAN] [--scope NAME]")
    let scoped: ReplayScope?
    do {
      scoped = try scope.map { try ReplayScope($0, of: file) }
    } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    defer { scoped?.remove() }
    if let warning = scoped?.warning { StandardError.write("tagscope: \(warning)\n") }
    let timeline: Timeline
    do {
      timeline = try Timeline.open(path: scoped?.path ?? file)
    } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    defer { timeline.release() }
    if timeline.isTemporary {
      // A pipe, FIFO or standard input gives its bytes once; replay reads records back at random.
      StandardError.write(
        "tagscope: \(file) can be read only once (a pipe or standard input): copied to \(timeline.url.path) "
          + "as it arrives for replay, removed on quit\n")
    }
    var label = file == "-" ? "stdin" : URL(fileURLWithPath: file).lastPathComponent
    if let scope { label += " · scope \(scope)" }
    if let warning = timeline.header.versionWarning {
      StandardError.write("tagscope: \(file): warning: \(warning)\n")
      label += " (format v\(timeline.header.version), newer: read as v\(RecordingHeader.currentVersion))"
    }
    let wakeup = Wakeup()
    var check: BackgroundPlanCheck?
    var checker: PlanChecker?
    do {
      if let plan = try PlanChecker.loadPlan(path: plan, demo: false) {
        checker = PlanChecker(plan: plan, timeline: timeline) { wakeup.signal() }
      }
    } catch {
      StandardError.write("tagscope: \(error)\n")
      throw ExitCode(2)
    }
    if let checker {
      check = BackgroundPlanCheck(timeline: timeline, checker: checker) { wakeup.signal() }
      check?.start()
    }
    let source = InspectorTimelineSource(timeline: timeline, sourceLabel: label, plan: checker)
    let result: Result<LoopStats, TerminalError>
    do {
      result = .success(try Debugger.run(source, mode: .replay, wakeup: wakeup))
    } catch {
      result = .failure(error)
    }
    check?.stop()
    let problems = timeline.problems
    for problem in problems.prefix(20) {
      // A scope's copy keeps the original's line numbers: its problems name the original.
      let text = scoped.map { "\(problem)".replacingOccurrences(of: $0.path, with: file) } ?? "\(problem)"
      StandardError.write("tagscope: \(text)\n")
    }
    if timeline.problemCount > 20 {
      StandardError.write("tagscope: … and \(timeline.problemCount - 20) more bad lines, skipped\n")
    }
    if case .failure(let error) = result {
      StandardError.write(error.description + "\n")
      throw ExitCode(2)
    }
  }
}
