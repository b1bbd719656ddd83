import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// The live session hands its store the arrays a batch's inputs came in (segments), never one
/// joined array: the recording and the plan check see the same records in the same order.
final class SegmentedStoreTests: XCTestCase {
  func testARecorderWritesSegmentsAsTheJoinedArrayAcrossItsChunks() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "segments-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    // Over 64 KB in all, so the chunks end inside a segment and across two.
    let marker = SinkItem(DropMarker(count: 2, time: Date(timeIntervalSince1970: 1_800_000_000), origin: "t"))
    let segments = [
      SinkItem.items(screenRecords(700)), [marker], SinkItem.items(screenRecords(1, first: 701)), [],
      SinkItem.items(screenRecords(900, first: 702)),
    ]
    let header = RecordingHeader(app: "test", started: Date(timeIntervalSince1970: 1_800_000_000))
    let joined = try Recorder(url: directory.appendingPathComponent("joined.jsonl"), header: header)
    joined.receive(Array(segments.joined()))
    joined.close()
    let split = try Recorder(url: directory.appendingPathComponent("split.jsonl"), header: header)
    split.receive(segments: segments)
    split.close()

    let expected = try Data(contentsOf: joined.url)
    XCTAssertGreaterThan(expected.count, 2 * 64 * 1024)
    XCTAssertEqual(try Data(contentsOf: split.url), expected)
  }

  func testTheSessionHandsItsStoreEachInputsArrayAndChecksTheirRecordsInOrder() throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try SegmentLogStore(url: url)
    let log = UpdateLog()
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  screen2: {}\n  screen5: {}\n", file: "p.yaml")
    let session = LiveSession(store: store, checker: PlanChecker(plan: plan), delivery: nil) {
      log.append($0)
    }
    session.deliver(.records(screenRecords(1)))
    XCTAssertTrue(eventually { store.calls.count == 1 }, "the worker holds the first batch at the store")
    // Queued behind it: taken as one batch.
    session.deliver(.records(screenRecords(2, first: 2)))
    let marker = DropMarker(count: 4, time: Date(timeIntervalSince1970: 1_800_000_000), origin: "inspector")
    session.receive([
      SinkItem(screenRecords(1, first: 4)[0]), SinkItem(marker), SinkItem(screenRecords(1, first: 5)[0]),
    ])
    session.deliver(.records(screenRecords(1, first: 6)))
    store.open()
    session.flush()

    XCTAssertEqual(store.calls, [[1], [2, 3, 1]], "one store call per batch, one segment per input")
    let violations = log.all.flatMap(\.violations)
    XCTAssertEqual(violations.map(\.count), [1, 0, 1, 1, 0, 1], "screen2 and screen5 are planned")
    session.close()
    XCTAssertEqual(try recordedRecords(url).map(\.seq), Array(1...6))
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    XCTAssertEqual(lines.count, 8, "header, 6 records and the drop marker between the fourth and fifth")
    XCTAssertTrue(lines[5].contains("\"dropped\":4"), String(lines[5]))
  }
}

/// A recorder that logs the segment sizes of each batch, holding the first until ``open()``.
private final class SegmentLogStore: LiveStore, @unchecked Sendable {
  private let recorder: Recorder
  private let condition = NSCondition()
  private var isOpen = false
  private var received: [[Int]] = []

  init(url: URL) throws {
    recorder = try Recorder(url: url, header: RecordingHeader(app: "test", started: Date()))
  }

  /// Each batch's segment sizes, in order.
  var calls: [[Int]] {
    condition.lock()
    defer { condition.unlock() }
    return received
  }

  func open() {
    condition.lock()
    isOpen = true
    condition.broadcast()
    condition.unlock()
  }

  func receive(_ items: [SinkItem]) { receive(segments: [items]) }

  func receive(segments: [[SinkItem]]) {
    condition.lock()
    received.append(segments.map(\.count))
    while !isOpen { condition.wait() }
    condition.unlock()
    recorder.receive(segments: segments)
  }

  func flush() { recorder.flush() }
  func close() { recorder.close() }
  var lastWriteError: SystemError? { recorder.lastError }
}
