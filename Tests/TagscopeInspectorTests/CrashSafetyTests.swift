import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// kill -9 during a write, then reload. The test re-runs its own test binary as a child that
/// records a hub's dispatches as fast as it can, kills it with SIGKILL mid-stream and reads the
/// file back.
final class CrashSafetyTests: XCTestCase {
  static let childVariable = "TAGSCOPE_CRASH_CHILD_RECORDING"

  /// In the child (the variable set): records forever. In a normal run: does nothing.
  func testChildRecordsUntilKilled() throws {
    guard let path = ProcessInfo.processInfo.environment[Self.childVariable] else { return }
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    let inspector = Inspector(sinks: [try Recorder(url: URL(fileURLWithPath: path))])
    hub.addObserver(inspector)
    while true { drivePodcastTour(hub, clock: clock, steps: 1000) }
  }

  #if os(Linux)
    func testKillDashNineMidWriteLeavesALoadableRecording() throws {
      let directory = try TemporaryDirectory()
      let url = directory.file("killed.jsonl")
      let child = Process()
      child.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
      child.arguments = ["TagscopeInspectorTests.CrashSafetyTests/testChildRecordsUntilKilled"]
      child.environment = ProcessInfo.processInfo.environment.merging([Self.childVariable: url.path]) { $1 }
      child.standardOutput = FileHandle.nullDevice
      child.standardError = FileHandle.nullDevice
      try child.run()
      // Killed once the file holds the 1,000 records the checks below need, however long a busy
      // machine takes to write them (the deadline only stops a child that never gets there).
      let lines = LineCounter(url: url)
      let wrote = eventually(timeout: 120) { !child.isRunning || lines.count > 1_001 }
      XCTAssertTrue(child.isRunning, "the child keeps writing until killed")
      kill(child.processIdentifier, SIGKILL)
      child.waitUntilExit()
      XCTAssertEqual(child.terminationReason, .uncaughtSignal)
      XCTAssertTrue(wrote, "the child wrote \(lines.count) lines before it was killed")

      let read = try ReadBack(path: url.path)
      XCTAssertGreaterThan(read.records.count, 1000)
      // Nothing but (at most) the last line may be bad, and only as a truncated last line.
      XCTAssertLessThanOrEqual(read.problems.count, 1)
      if let problem = read.problems.first {
        XCTAssertTrue(problem.isTruncatedLastLine, problem.description)
        XCTAssertEqual(problem.line, read.records.count + read.markers.count + 2)
      }
      let seqs = read.records.map(\.seq)
      XCTAssertEqual(seqs, seqs.sorted())
      XCTAssertEqual(Set(seqs).count, seqs.count)
      // Without drops, the sequence has no hole (the tour's non-sent tags also get records).
      if read.markers.isEmpty { XCTAssertEqual(seqs.last, seqs.first.map { $0 + UInt64(seqs.count) - 1 }) }
    }
  #endif
}

/// Counts the complete lines of a file that another process is appending to, reading only what
/// was appended since the last count.
private final class LineCounter {
  private let url: URL
  private var handle: FileHandle?
  private var lines = 0

  init(url: URL) { self.url = url }

  var count: Int {
    if handle == nil { handle = try? FileHandle(forReadingFrom: url) }
    if let data = try? handle?.readToEnd() { lines += data.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) } }
    return lines
  }
}
