import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import TagscopeUI

/// Tagging-plan results for the debugger: a ``PlanMonitor`` checks records as they reach the
/// timeline; each record's violation count goes into the timeline's index (so `[`/`]` and the ✗
/// marks see it) and the details into the Providers pane.
final class PlanChecker: PlanFeed {
  let monitor: PlanMonitor
  private let timeline: Timeline

  init(plan: Plan, timeline: Timeline) {
    monitor = PlanMonitor(plan: plan)
    self.timeline = timeline
  }

  /// Loads the plan at `path`, or the demo's own plan when `path` is nil and `demo` is set.
  static func loadPlan(path: String?, demo: Bool) throws -> Plan? {
    if let path { return try PlanLoader.load(contentsOf: path) }
    return demo ? try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan") : nil
  }

  var headerText: String { monitor.headerText }

  /// `· action playPodcast on downloads: firebase · plan line 72` for each expectation not yet
  /// seen, then `✓ … · 12×` for those seen.
  func checklist() -> [String] {
    let coverage = monitor.coverage
    var missing: [String] = []
    var seen: [String] = []
    for (index, item) in coverage.items.enumerated() {
      let count = coverage.counts[index]
      if count == 0 {
        missing.append("· \(item.id) · not yet seen · plan line \(item.location.line)")
      } else {
        seen.append("✓ \(item.id) · \(count)× · plan line \(item.location.line)")
      }
    }
    return ["\(coverage.summary): \(missing.count) not yet seen"] + missing + seen
  }

  func findings(at index: Int) -> [PlanFinding] {
    monitor.violations(at: index).map {
      PlanFinding(
        provider: $0.provider,
        violation: ViolationView(
          rule: "plan." + $0.rule.rawValue, message: $0.message, severity: $0.severity.rawValue))
    }
  }

  /// Checks the record at timeline position `position`.
  func check(_ record: Record, at position: Int) {
    let found = monitor.check(record, at: position)
    if !found.isEmpty { timeline.setPlanViolations(found.count, at: position) }
  }
}

/// The live demo's sink: records go to the timeline, are checked against the plan, then the UI is
/// woken.
final class CheckingSink: RecordSink {
  private let timeline: Timeline
  private let checker: PlanChecker?
  private let wakeup: Wakeup

  init(timeline: Timeline, checker: PlanChecker?, wakeup: Wakeup) {
    self.timeline = timeline
    self.checker = checker
    self.wakeup = wakeup
  }

  func receive(_ items: [SinkItem]) {
    // Only this (the inspector's) thread appends, so positions follow from the count before.
    var position = timeline.count
    timeline.receive(items)
    if let checker {
      for item in items {
        guard case .record(let record, _) = item else { continue }
        checker.check(record, at: position)
        position += 1
      }
    }
    wakeup.signal()
  }

  func flush() { timeline.flush() }
  func close() { timeline.close() }
}

/// Replay: checks a recording's records in the background as the timeline indexes them, waking the
/// UI after each batch so coverage and marks appear as they are found.
final class BackgroundPlanCheck: @unchecked Sendable {
  private let timeline: Timeline
  private let checker: PlanChecker
  private let wakeup: Wakeup
  private let condition = NSCondition()
  private var stopping = false

  init(timeline: Timeline, checker: PlanChecker, wakeup: Wakeup) {
    self.timeline = timeline
    self.checker = checker
    self.wakeup = wakeup
  }

  func start() {
    let thread = Thread { [self] in run() }
    thread.name = "tagscope.replay.plan"
    thread.start()
  }

  func stop() {
    condition.lock()
    stopping = true
    condition.broadcast()
    condition.unlock()
  }

  private func run() {
    var next = 0
    while true {
      let indexing = timeline.isIndexing
      let count = timeline.count
      while next < count {
        if let record = try? timeline.record(at: next) { checker.check(record, at: next) }
        next += 1
        if next % 2_000 == 0 {
          wakeup.signal()
          if isStopping { return }
        }
      }
      wakeup.signal()
      if !indexing { return }
      condition.lock()
      if !stopping { _ = condition.wait(until: Date().addingTimeInterval(0.05)) }
      let stop = stopping
      condition.unlock()
      if stop { return }
    }
  }

  private var isStopping: Bool {
    condition.lock()
    defer { condition.unlock() }
    return stopping
  }
}
