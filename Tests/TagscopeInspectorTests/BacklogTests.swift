import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeInspector

/// The inspector's backlog is sized in bytes of the lines it will become, so an app whose records
/// are small keeps more of them through a stall than one whose records are large.
final class BacklogTests: XCTestCase {
  /// A sink that passes its first batch, then holds every later one until opened.
  final class GatedSink: RecordSink, @unchecked Sendable {
    private let lock = NSLock()
    private let gate = DispatchSemaphore(value: 0)
    private var batches = 0
    private var records = 0

    func receive(_ items: [SinkItem]) {
      let first = lock.withLock {
        batches += 1
        records += items.filter { if case .record = $0 { true } else { false } }.count
        return batches == 1
      }
      if !first {
        gate.wait()
        gate.signal()
      }
    }
    func open() { gate.signal() }
    var received: Int { lock.withLock { records } }
    func flush() {}
    func close() {}
  }

  func testTheLimitFollowsTheLinesWritten() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("sizes.jsonl")
    let recorder = try Recorder(url: url)
    let bytes = 256 << 10
    let inspector = Inspector(sinks: [recorder], backlog: .bytes(bytes), whenFull: .wait)
    XCTAssertEqual(inspector.backlogLimit, 256, "1 KiB a line until a line is measured")
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: [])
    hub.addObserver(inspector)
    // The limit follows a moving mean whose weight per batch is its share of 256 lines: on a busy
    // machine the writer takes many small batches, so enough lines that the first ones no longer
    // count whatever the batching (2,000 lines leave under e^-7 of the first line's weight).
    for _ in 0..<2_000 { hub.send(screen: .podcasts) }
    hub.flush()
    inspector.flush()
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").dropFirst()
    let mean = Double(lines.map { $0.utf8.count + 1 }.reduce(0, +)) / Double(lines.count)
    XCTAssertLessThan(mean, 400, "a screen with no provider is a short line")
    XCTAssertEqual(
      Double(inspector.backlogLimit), Double(bytes) / mean, accuracy: Double(bytes) / mean / 8 + 1)
    inspector.close()
  }

  func testAStalledSinkLosesNothingWhileTheLinesFitInTheBytes() throws {
    let sink = GatedSink()
    let inspector = Inspector(sinks: [sink], backlog: .bytes(256 << 10))
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: [])
    hub.addObserver(inspector)
    hub.send(screen: .podcasts)
    hub.flush()
    inspector.flush()
    XCTAssertGreaterThan(inspector.backlogLimit, 600)
    // 500 small records behind a stalled sink: more than 256 dispatches, less than 256 KiB.
    for _ in 0..<500 { hub.send(screen: .favorites) }
    hub.flush()
    sink.open()
    inspector.close()
    XCTAssertEqual(inspector.droppedCount, 0)
    XCTAssertEqual(sink.received, 501)
  }

  func testADispatchLimitStaysWhatItWasGiven() throws {
    let inspector = Inspector(sinks: [SlowSink()], backlog: .dispatches(100))
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: [])
    hub.addObserver(inspector)
    for _ in 0..<50 { hub.send(screen: .podcasts) }
    hub.flush()
    inspector.flush()
    XCTAssertEqual(inspector.backlogLimit, 100)
    inspector.close()
  }

  func testTheStandardBacklogIs32MiB() {
    XCTAssertEqual(Inspector.Backlog.standard, .bytes(32 << 20))
  }
}
