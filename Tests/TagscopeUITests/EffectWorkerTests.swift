import Foundation
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The event loop's effects run on worker threads and come back through the inbox: what they post
/// is what the runner returns, and a long job (a plan entry added, its re-check) never holds back
/// the loads the screen needs.
final class EffectWorkerTests: XCTestCase {
  func testEffectsComeBackThroughTheInboxAsTheRunnerReturnsThem() throws {
    let store = Fixtures.store()
    let inbox = Wakeup()
    let worker = EffectWorker(runner: EffectRunner(source: store.source), inbox: inbox)
    defer { worker.stop() }
    let effects: [Effect] = [.loadRows([0, 1, 2]), .loadInfo, .loadSelection(1)]
    for effect in effects { worker.submit(effect) }
    let results = try collect(from: inbox, count: effects.count)
    XCTAssertEqual(results.map(\.effect), effects, "one lane runs them in order")
    let direct = EffectRunner(source: store.source)
    for (effect, messages) in results { XCTAssertEqual(messages, direct.run(effect), "\(effect)") }
  }

  func testALongJobDoesNotHoldBackTheScreensLoads() throws {
    let store = Fixtures.store()
    let plan = BlockingPlan()
    let source = InspectorTimelineSource(timeline: store.timeline, sourceLabel: "test", plan: plan)
    let inbox = Wakeup()
    let worker = EffectWorker(runner: EffectRunner(source: source), inbox: inbox)
    defer { worker.stop() }
    let preview = PlanEntryPreview(
      planFile: "plan.yaml", section: "actions", name: "x", label: "action x", text: "x: {}\n", screens: [],
      records: 1)
    worker.submit(.addPlanEntry(preview))
    plan.started.wait()  // the job is running (and blocked) on its lane
    worker.submit(.loadRows([0]))
    let first = try collect(from: inbox, count: 1)
    XCTAssertEqual(first.map(\.effect), [.loadRows([0])], "the rows came while the job ran")
    plan.release.signal()
    let second = try collect(from: inbox, count: 1)
    XCTAssertEqual(second.map(\.effect), [.addPlanEntry(preview)])
    XCTAssertEqual(second.first?.messages, [.planEntryAdded(.success("added"))])
  }

  /// Waits (on the inbox's pipe, as the event loop does) until `count` results arrived.
  private func collect(from inbox: Wakeup, count: Int) throws -> [(effect: Effect, messages: [Msg])] {
    var results: [(effect: Effect, messages: [Msg])] = []
    while results.count < count {
      var descriptor = pollfd(fd: inbox.readDescriptor, events: Int16(POLLIN), revents: 0)
      // A guard against a hang only: results normally arrive within milliseconds.
      guard poll(&descriptor, 1, 60_000) > 0 else { throw NoResult() }
      results += inbox.drain().results
    }
    return results
  }
}

/// No effect result came back (the test's guard against a hang).
private struct NoResult: Error {}

/// A plan whose `addEntry` blocks until released, as a long re-check does.
private final class BlockingPlan: PlanFeed, @unchecked Sendable {
  let started = DispatchSemaphore(value: 0)
  let release = DispatchSemaphore(value: 0)
  var headerText: String { "plan" }
  var errorsText: String { "" }
  func findings(at index: Int) -> [PlanFinding] { [] }
  func checklist() -> [ChecklistItem] { [] }
  func comparisons(at index: Int) -> [Comparison] { [] }

  func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    started.signal()
    release.wait()
    return .success("added")
  }
}
