import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// The live pipeline on its own: bounded queue, then store, plan check and notification on the
/// session's worker, in arrival order; nothing taken is lost on close.
final class LiveSessionTests: XCTestCase {
  func testEventsAreStoredCheckedAndNotifiedInArrivalOrder() throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url)
    let log = UpdateLog()
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  screen2: {}\n", file: "p.yaml")
    let session = LiveSession(store: store, checker: PlanChecker(plan: plan)) { log.append($0) }
    session.deliver(.sourceConnected(source: "a", header: RecordingHeader(app: "a")))
    session.deliver(.records(screenRecords(2, source: "a")))
    session.deliver(.dropped(source: "a", marker: DropMarker(count: 3, time: Date(), origin: "a")))
    session.deliver(.problem(source: "b", message: "line 4: not JSON"))
    session.deliver(.records(screenRecords(1, first: 3, source: "b")))
    session.flush()

    let updates = log.all
    let names = updates.flatMap(\.events).map { event -> String in
      switch event {
      case .records(let records): return records.map(\.name).joined(separator: ",")
      case .sourceConnected(let source, _): return "connected \(source)"
      case .dropped(_, let marker): return "dropped \(marker.count)"
      case .problem(_, let message): return message
      case .sourceDisconnected(let source): return "gone \(source)"
      case .inputEnded(let source): return "ended \(source)"
      }
    }
    XCTAssertEqual(names, ["connected a", "screen1,screen2", "dropped 3", "line 4: not JSON", "screen3"])
    // One violation list per record, in order: screen1 and screen3 are not planned.
    let violations = updates.flatMap(\.violations)
    XCTAssertEqual(violations.map(\.count), [1, 0, 1])
    XCTAssertEqual(violations[0].first?.rule, .unplannedTag)
    XCTAssertEqual(updates.first?.firstPosition, 0)

    session.close()
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 5, "header, 2 records, the drop marker, 1 record")
    XCTAssertEqual(try recordedRecords(url).map(\.name), ["screen1", "screen2", "screen3"])
  }

  func testAFullQueueHasNoRoomUntilTheWorkerCatchesUpAndCloseStoresEverything() throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store, capacity: 100)
    XCTAssertTrue(session.hasRoom)
    session.deliver(.records(screenRecords(60)))
    XCTAssertTrue(eventually { store.batchCount == 1 }, "the worker took the first batch")
    session.deliver(.records(screenRecords(60, first: 61)))
    XCTAssertFalse(session.hasRoom, "120 records queued or being stored, bound 100")
    let resumed = DispatchSemaphore(value: 0)
    let storeWasOpen = LockedArray<Bool>()
    session.whenRoom {
      storeWasOpen.append(store.isOpen)
      resumed.signal()
    }
    store.setOpen(true)
    XCTAssertEqual(resumed.wait(timeout: .now() + 60), .success)
    XCTAssertEqual(storeWasOpen.all, [true], "no room while the store waits")
    session.deliver(.records(screenRecords(500, first: 121)))  // over the bound: still taken
    session.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), Array(1...620))
    XCTAssertGreaterThanOrEqual(session.peakLoad, 500)
  }

  func testAnInspectorBatchWaitsForRoomInsteadOfGrowingTheQueue() throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store, capacity: 10)
    session.receive(screenRecords(10).map(SinkItem.init))
    let returned = DispatchSemaphore(value: 0)
    let storeWasOpen = LockedArray<Bool>()
    let receiving = LockedArray<Bool>()
    Thread.detachNewThread {
      receiving.append(true)
      session.receive(screenRecords(10, first: 11).map(SinkItem.init))
      storeWasOpen.append(store.isOpen)
      returned.signal()
    }
    XCTAssertTrue(eventually { store.batchCount == 1 && !receiving.all.isEmpty })
    store.setOpen(true)
    XCTAssertEqual(returned.wait(timeout: .now() + 60), .success)
    XCTAssertEqual(storeWasOpen.all, [true], "waits while full")
    session.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), Array(1...20))
    XCTAssertLessThanOrEqual(session.peakLoad, 20)
  }

  func testATimelineStoreIsIndexedAndMarkedWithThePlansViolations() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  screen2: {}\n", file: "p.yaml")
    let checker = PlanChecker(plan: plan, timeline: timeline)
    let notified = UpdateLog()
    let session = LiveSession(store: timeline, checker: checker) { notified.append($0) }
    session.receive(screenRecords(3).map(SinkItem.init))
    session.flush()
    XCTAssertEqual(timeline.count, 3)
    XCTAssertEqual(timeline.nextViolation(after: -1), 0)
    XCTAssertEqual(timeline.nextViolation(after: 0), 2)
    XCTAssertEqual(checker.monitor.violations(at: 2).first?.rule, .unplannedTag)
    XCTAssertFalse(notified.all.isEmpty, "the UI was told after the batch was stored")
    session.close()
    XCTAssertTrue(timeline.isEnded)
  }

  func testReloadingThePlanChecksTheRecordsSoFarAgainAndMovesTheMarks() throws {
    let timeline = try Timeline.live()
    defer { timeline.release() }
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  screen2: {}\n", file: "p.yaml")
    let checker = PlanChecker(plan: plan, timeline: timeline)
    let session = LiveSession(store: timeline, checker: checker) { _ in }
    session.receive(screenRecords(3).map(SinkItem.init))
    session.flush()
    XCTAssertEqual(checker.monitor.counts.errors, 2)
    // The plan now lists screen1 and screen3 but no longer screen2.
    let grown = try PlanLoader.load(yaml: "plan: P\nscreens:\n  screen1: {}\n  screen3: {}\n", file: "p.yaml")
    XCTAssertTrue(checker.reload(grown))
    checker.waitUntilReloaded()
    XCTAssertEqual(checker.monitor.plan.entries.map(\.name), ["screen1", "screen3"])
    XCTAssertEqual(checker.monitor.counts.errors, 1)
    XCTAssertEqual(timeline.nextViolation(after: -1), 1, "the mark of position 0 is gone, 1 has one")
    XCTAssertEqual(timeline.nextViolation(after: 1), nil, "the mark of position 2 is gone")
    XCTAssertEqual(checker.monitor.violations(at: 0), [])
    XCTAssertEqual(checker.monitor.violations(at: 1).first?.rule, .unplannedTag)
    XCTAssertEqual(checker.monitor.coverage.seenCount, 2)
    // Records arriving after the reload are checked against the new plan.
    session.receive(screenRecords(4).suffix(1).map(SinkItem.init))
    session.flush()
    XCTAssertEqual(checker.monitor.counts.errors, 2)
    XCTAssertFalse(PlanChecker(plan: grown).reload(plan), "no timeline to read the records from")
    session.close()
  }

  func testAWriteFailureIsReportedOnceAndTheSessionGoesOn() throws {
    let store = FailingStore()
    let log = UpdateLog()
    let session = LiveSession(store: store) { log.append($0) }
    session.deliver(.records(screenRecords(2)))
    session.flush()
    session.deliver(.records(screenRecords(2, first: 3)))
    session.flush()
    session.close()
    XCTAssertEqual(log.all.compactMap(\.writeFailure).map(\.description).count, 1)
    XCTAssertEqual(log.all.flatMap(\.events).count, 2, "both batches were still notified")
    XCTAssertEqual(store.received, 4)
  }
}

/// A store whose disk is full from the first write on.
private final class FailingStore: LiveStore, @unchecked Sendable {
  private let lock = NSLock()
  private var count = 0
  var received: Int { lock.withLock { count } }
  func receive(_ items: [SinkItem]) { lock.withLock { count += items.count } }
  func flush() {}
  func close() {}
  var lastWriteError: SystemError? {
    received > 0 ? SystemError("write", "/full/disk.jsonl", .noSpace) : nil
  }
}
