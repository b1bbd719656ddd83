import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeRecording
@testable import TagscopeTimeline

/// The recording reader: bad lines located and skipped, files that are not recordings refused with
/// one clear error, pipes, and lines longer than a chunk or over the limit.
final class RecordingReaderTests: XCTestCase {
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
}
