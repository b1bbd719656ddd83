import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import TagscopeFuzzing
import TagscopeTestSupport
import XCTest

@testable import TagscopeRecording
@testable import TagscopeTimeline

/// A bounded fuzzing pass (see ``FuzzRun``) over the recording reader: every line of every input is
/// accounted for, in order, and no input is slow.
final class RecordingReaderFuzzTests: XCTestCase {
  /// The record lines of the podcast tour's first `count` dispatches (every kind, escapes, outputs).
  private static func tourLines(count: Int) throws -> [String] {
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    let dispatches = DispatchRecorder()
    hub.addObserver(dispatches)
    drivePodcastTour(hub, clock: clock, steps: count)
    return dispatches.dispatches.prefix(count).map { RecordLineEncoder.line(Record(dispatch: $0)) }
  }

  func testRecordingReaderAccountsForEveryLine() throws {
    let directory = try TemporaryDirectory()
    let header = RecordLineEncoder.line(RecordingHeader(app: "A", device: "d"))
    let records = try Self.tourLines(count: 40)
    let corpus = stride(from: 0, to: records.count, by: 8).map { start in
      Array(([header] + records[start..<(start + 8)]).joined(separator: "\n").utf8) + [10]
    }
    let path = directory.file("fuzz.jsonl").path
    let outcome = FuzzRun(name: "recording-reader").run(
      corpus: corpus, maximumLength: 16_384, minimumInputs: 51
    ) {
      input in
      do {
        try Data(input).write(to: URL(fileURLWithPath: path))
      } catch {
        return "cannot write the input: \(error)"
      }
      let reader: RecordingReader
      do {
        reader = try RecordingReader(path: path)
      } catch {
        return "\(error)".contains(path) ? nil : "a refusal that does not name the file: \(error)"
      }
      let lines = input.split(separator: 10, omittingEmptySubsequences: false).count
      var last = 1
      var entries = 0
      do {
        while let entry = try reader.next() {
          entries += 1
          let line: Int
          switch entry {
          case .record(_, let location), .dropped(_, let location): line = location.line
          case .problem(let problem): line = problem.line
          }
          guard line > last, line <= lines else {
            return "entry \(entries) at line \(line) after line \(last) of \(lines)"
          }
          last = line
        }
      } catch {
        return "reading stopped: \(error)"
      }
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 50)
  }
}
