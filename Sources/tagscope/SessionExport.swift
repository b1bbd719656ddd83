import ArgumentParser
import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// `tagscope export --html OUT RECORDING [--plan PLAN]`: the recording as the debugger shows it,
/// in one self-contained HTML page (``SessionPage``).
enum SessionExport {
  /// Writes the HTML session of `recording` (a HAR capture is imported first, as replay does),
  /// checked against `plan` when given, to `output`; returns what to say on standard error. Exits
  /// with 2 when the recording or plan cannot be read or `output` cannot be written. With `salt`,
  /// personal data is replaced by hashes salted with it (``SessionPage/html(from:positions:notes:redactingWith:)``).
  static func write(
    _ recording: String, plan: String?, to output: String, replacing: Bool, redactingWith salt: String? = nil
  ) throws -> String {
    do { try OutputFile.check(output, replacing: replacing) } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    let capture = try CaptureInput(recording)
    defer { capture.remove() }
    let timeline: Timeline
    do { timeline = try Timeline.open(path: capture.path) } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    defer { timeline.release() }
    timeline.waitUntilIndexed()
    if let failure = timeline.indexingFailure {
      StandardError.write("error: \(recording): \(failure)\n")
      throw ExitCode(2)
    }
    var checker: PlanChecker?
    do {
      if let loaded = try PlanChecker.loadPlan(path: plan, demo: false) {
        checker = PlanChecker(plan: loaded, timeline: timeline)
      }
    } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    if let checker {
      let check = BackgroundPlanCheck(timeline: timeline, checker: checker) {}
      check.start()
      check.waitUntilDone()
    }
    let label = recording == "-" ? "stdin" : URL(fileURLWithPath: recording).lastPathComponent
    let source = InspectorTimelineSource(timeline: timeline, sourceLabel: label, plan: checker)
    // Lines the reader skipped are said in the page and here, with their place.
    var notes = timeline.problems.map { "\($0) (skipped)" }
    if timeline.problemCount > notes.count {
      notes.append("… and \(timeline.problemCount - notes.count) more bad lines, skipped")
    }
    let count: Int
    do {
      count = try SessionPage.write(
        from: source, notes: notes, to: output, replacing: replacing, redactingWith: salt)
    } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    let records = count == 1 ? "1 record" : "\(count) records"
    let redacted = salt == nil ? "" : ", personal data redacted"
    return "\(recording): \(records) exported to \(output) (an HTML session\(redacted))\n"
      + notes.map { "\($0)\n" }.joined()
  }
}
