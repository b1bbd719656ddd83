import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

final class RecorderReaderTests: XCTestCase {
  func testHubToRecordToFileToReaderIsTheSame() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("tour.jsonl")
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    let memory = DispatchRecorder()
    hub.addObserver(memory)
    let header = RecordingHeader(app: "Podcasts", device: "test", started: clock.now)
    let inspector = Inspector(sinks: [try Recorder(url: url, header: header)])
    hub.addObserver(inspector)
    drivePodcastTour(hub, clock: clock, steps: 500)
    hub.flush()
    inspector.close()

    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.header, header)
    XCTAssertEqual(read.problems, [])
    XCTAssertEqual(read.markers, [])
    XCTAssertEqual(read.records, memory.dispatches.map(Record.init(dispatch:)))
    XCTAssertEqual(read.records.count, memory.dispatches.count)
    XCTAssertGreaterThan(read.records.count, 450)
    XCTAssertEqual(read.locations.first?.line, 2)
    // Every kind of the tour is there, with calls and blocked outputs.
    XCTAssertEqual(
      Set(read.records.map(\.kind)),
      [
        .screen, .userAction, .timedStart, .event, .timedStop, .sessionStart, .sessionEnd, .consent, .state,
        .sessionUpdate, .identify,
      ])
    XCTAssertTrue(
      read.records.contains { $0.outputs.contains { $0.status == .blocked && $0.reason == "consent" } })
    XCTAssertTrue(read.records.contains { !$0.issues.isEmpty })
  }

  func testBadLinesAreReportedAtTheirLineAndSkipped() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("bad.jsonl")
    var text = RecordLineEncoder.line(RecordingHeader(app: "A")) + "\n"
    var expected: [UInt64] = []
    for seq in 1...10 {
      switch seq {
      case 3: text += "{\"seq\":3,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"screen\"\n"
      case 5: text += "not json at all\n"
      case 7: text += "{\"seq\":7,\"time\":\"yesterday\",\"kind\":\"screen\",\"name\":\"a\"}\n"
      case 8: text += "\n"
      default:
        text +=
          RecordLineEncoder.line(Record(seq: UInt64(seq), time: Date(), kind: .screen, name: "s\(seq)"))
          + "\n"
        expected.append(UInt64(seq))
      }
    }
    text += "{\"seq\":11,\"time\":\"2026-11-21T10:00:00.000Z\",\"kind\":\"scr"
    try Data(text.utf8).write(to: url)

    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.records.map(\.seq), expected)
    XCTAssertEqual(read.problems.map(\.line), [4, 6, 8, 12])
    XCTAssertEqual(
      read.problems[0].description,
      "\(url.path):4: invalid JSON: unexpected end of line inside an object at byte 59")
    XCTAssertEqual(read.problems[1].reason, "invalid JSON: invalid literal, expected 'null' at byte 1")
    XCTAssertEqual(
      read.problems[2].reason, "field 'time': expected an ISO 8601 timestamp, found \"yesterday\"")
    XCTAssertTrue(read.problems[3].isTruncatedLastLine)
    XCTAssertTrue(read.problems[3].reason.hasPrefix("truncated last line"), read.problems[3].reason)
    XCTAssertFalse(read.problems[0].isTruncatedLastLine)
    // Locations point at the lines' bytes.
    let data = try Data(contentsOf: url)
    let location = read.locations[1]
    let bytes = data[Int(location.offset)..<(Int(location.offset) + location.length)]
    XCTAssertEqual(try RecordLineDecoder.decode(Array(bytes)), .record(read.records[1]))
  }

  func testNotARecordingIsOneClearError() throws {
    let directory = try TemporaryDirectory()
    func error(_ bytes: [UInt8]) throws -> String {
      let url = directory.file("x-\(UUID().uuidString)")
      try Data(bytes).write(to: url)
      do {
        _ = try RecordingReader(path: url.path)
        return "no error"
      } catch { return error.description.replacingOccurrences(of: url.path, with: "F") }
    }
    XCTAssertEqual(try error([]), "F: not a tagscope recording: the input is empty")
    XCTAssertEqual(
      try error([0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x00, 0x00, 0x0A, 0xFF]),
      "F: not a tagscope recording: it holds binary data, not JSON Lines text")
    XCTAssertEqual(
      try error(Array("hello\n".utf8)),
      "F: not a tagscope recording: line 1 is not a recording header (invalid JSON: unexpected character 'h', a value was expected at byte 1)"
    )
    XCTAssertEqual(
      try error(Array("{\"format\":\"har\",\"version\":1}\n".utf8)),
      "F: not a tagscope recording: line 1 is not a recording header (field 'format': expected \"tagscope-recording\", found \"har\")"
    )
    let record = RecordLineEncoder.line(Record(seq: 1, time: Date(), kind: .screen, name: "a"))
    XCTAssertEqual(
      try error(Array((record + "\n").utf8)),
      "F: not a tagscope recording: line 1 is a record, not the tagscope-recording header")
    XCTAssertEqual(
      try error(Array("{\"format\":\"tagscope-recording\",\"version\":1}\n".utf8)), "no error")
    XCTAssertThrowsError(try RecordingReader(path: directory.file("missing").path)) { error in
      XCTAssertTrue("\(error)".contains("open failed: No such file or directory"), "\(error)")
    }
  }

  func testReadsFromAPipeLikeStandardInput() throws {
    var descriptors: [Int32] = [0, 0]
    XCTAssertEqual(pipe(&descriptors), 0)
    let header = RecordingHeader(app: "Piped")
    let records = (1...300).map { Record(seq: UInt64($0), time: Date(), kind: .event, name: "e\($0)") }
    let writer = descriptors[1]
    let thread = Thread {
      var bytes: [UInt8] = []
      RecordLineEncoder.appendLine(header, to: &bytes)
      for record in records { RecordLineEncoder.appendLine(record, to: &bytes) }
      // Dribble it in small pieces, as a slow producer would.
      var offset = 0
      while offset < bytes.count {
        let count = min(1000, bytes.count - offset)
        _ = bytes[offset..<(offset + count)].withUnsafeBytes { write(writer, $0.baseAddress, count) }
        offset += count
      }
      close(writer)
    }
    thread.start()
    let reader = try RecordingReader(file: LineFile.wrapping(descriptor: descriptors[0], name: "<stdin>"))
    XCTAssertEqual(reader.header, header)
    var read: [Record] = []
    while let entry = try reader.next() {
      guard case .record(let record, _) = entry else { return XCTFail("unexpected \(entry)") }
      read.append(record)
    }
    XCTAssertEqual(read, records)
    close(descriptors[0])
  }

  func testLinesLongerThanTheChunkAndOverTheLimit() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("long.jsonl")
    var bytes: [UInt8] = []
    RecordLineEncoder.appendLine(RecordingHeader(), to: &bytes)
    let big = Record(
      seq: 1, time: Date(), kind: .event, name: "big",
      properties: ["blob": .string(String(repeating: "x", count: 3 << 20))])
    RecordLineEncoder.appendLine(big, to: &bytes)
    RecordLineEncoder.appendLine(Record(seq: 2, time: Date(), kind: .event, name: "small"), to: &bytes)
    try Data(bytes).write(to: url)
    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.records.map(\.seq), [1, 2])
    XCTAssertEqual(read.records.first, big)

    let file = try LineFile.openForReading(path: url.path)
    var scanner = LineScanner(file: file, maximumLineLength: 1 << 20)
    defer { scanner.release() }
    var events: [String] = []
    while let event = try scanner.next() {
      switch event {
      case .line(_, _, let number): events.append("line \(number)")
      case .overlong(_, let number, let length): events.append("overlong \(number) \(length)")
      case .unterminated(_, _, let number): events.append("unterminated \(number)")
      }
    }
    XCTAssertEqual(
      events,
      [
        "line 1",
        "overlong 2 \(bytes.count - RecordLineEncoder.line(RecordingHeader()).utf8.count - 2 - RecordLineEncoder.line(Record(seq: 2, time: Date(), kind: .event, name: "small")).utf8.count - 1)",
        "line 3",
      ])
  }

  func testAFullBacklogDropsAndWritesTheCountIntoTheRecording() throws {
    let directory = try TemporaryDirectory()
    let url = directory.file("drops.jsonl")
    let slow = SlowSink()
    let recorder = try Recorder(url: url)
    let inspector = Inspector(sinks: [slow, recorder], backlog: .dispatches(8))
    let clock = ManualClock()
    let hub = try makePodcastHub(clock: clock)
    hub.addObserver(inspector)
    drivePodcastTour(hub, clock: clock, steps: 400)
    hub.flush()
    inspector.close()
    let dropped = inspector.droppedCount
    XCTAssertGreaterThan(dropped, 0, "the slow sink makes the backlog overflow")
    let read = try ReadBack(path: url.path)
    XCTAssertEqual(read.problems, [])
    XCTAssertEqual(read.markers.map(\.count).reduce(0, +), dropped)
    XCTAssertEqual(read.records.count + dropped, read.records.count + read.markers.map(\.count).reduce(0, +))
    XCTAssertTrue(read.markers.allSatisfy { $0.origin == "inspector" })
    // Every gap in the sequence is explained by a marker right after the last record before it.
    let received = read.records.map(\.seq)
    XCTAssertEqual(received, received.sorted())
    for marker in read.markers { XCTAssertTrue(marker.afterSeq.map(received.contains) ?? true) }
  }
}

/// A sink that takes its time, so the inspector's backlog fills up.
final class SlowSink: RecordSink, @unchecked Sendable {
  func receive(_ items: [SinkItem]) { usleep(2000) }
  func flush() {}
  func close() {}
}
