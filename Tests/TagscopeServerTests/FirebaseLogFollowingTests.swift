import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 42, item 6: a followed Firebase log loses and repeats nothing however it is written
/// (truncated and written again at once, rotated while its logger still writes to it, saved by an
/// editor), and a line too long to hold is reported with its place and skipped.
final class FirebaseLogFollowingTests: XCTestCase {
  /// A real Android line (`Tests/Fixtures/firebase-log/android-real.txt`) with its event renamed.
  static func line(_ name: String, pid: Int = 4120) -> String {
    "V/FA-SVC  ( \(pid)): Logging event: origin=app,name=\(name),params=Bundle[{ga_event_origin(_o)=app, level=7}]\n"
  }

  private var directory: URL!

  override func setUpWithError() throws {
    directory = try FirebaseLogFollowTests.directory()
  }

  override func tearDownWithError() throws {
    try? FileManager.default.removeItem(at: directory)
  }

  private func problems(_ collector: Collector) -> [String] {
    collector.events.compactMap {
      if case .problem(_, let message) = $0 { return message }
      return nil
    }
  }

  /// Appends `text` to the file at `path` through a descriptor of its own.
  private func append(_ text: String, to path: String) throws {
    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: path))
    handle.seekToEndOfFile()
    handle.write(Data(text.utf8))
    try handle.close()
  }

  func testATruncationFollowedAtOnceByMoreBytesThanWereReadLosesNoEntry() async throws {
    let log = directory.appendingPathComponent("pixel.txt")
    try Data((Self.line("first") + Self.line("second")).utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["first", "second"])
    // Truncated and written again longer than what was read, in one go (`>` in a shell).
    let descriptor = open(log.path, O_WRONLY | O_TRUNC)
    XCTAssertGreaterThanOrEqual(descriptor, 0)
    let rewritten = Data(
      (Self.line("after_a", pid: 7) + Self.line("after_b", pid: 7) + Self.line("after_c")).utf8)
    XCTAssertEqual(rewritten.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }, rewritten.count)
    close(descriptor)
    XCTAssertEqual(
      collector.waitForRecords(5).map(\.name), ["first", "second", "after_a", "after_b", "after_c"],
      "\(problems(collector))")
    XCTAssertTrue(
      problems(collector).contains { $0.contains("was truncated") || $0.contains("was rewritten") })
    try await server.shutdown()
  }

  func testLinesAppendedToAFileRotatedAwayAreRead() async throws {
    let log = directory.appendingPathComponent("pixel.txt")
    try Data(Self.line("before_rotation").utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["before_rotation"])
    // logrotate's `create`: renamed away, a new file made; the logger writes to the old one until
    // it is told to reopen.
    let rotated = directory.appendingPathComponent("pixel.txt.1")
    try FileManager.default.moveItem(at: log, to: rotated)
    try Data(Self.line("in_new_file").utf8).write(to: log)
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["before_rotation", "in_new_file"])
    try append(Self.line("late_in_old_file"), to: rotated.path)
    try append(Self.line("next_in_new_file"), to: log.path)
    let names = collector.waitForRecords(4).map(\.name)
    XCTAssertEqual(
      Set(names), ["before_rotation", "in_new_file", "late_in_old_file", "next_in_new_file"], "\(names)")
    XCTAssertEqual(names.count, 4)
    try await server.shutdown()
  }

  func testAnEditorSaveThatKeepsWhatWasReadIsReadOnFromThereNotAgain() async throws {
    let log = directory.appendingPathComponent("pixel.txt")
    let first = Self.line("first") + "a line of another tag\n"
    try Data(first.utf8).write(to: log)
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["first"])
    // Written whole to another file and renamed over the log: a new inode, the same first bytes.
    try Data((first + Self.line("added_by_save")).utf8).write(to: log, options: .atomic)
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["first", "added_by_save"])
    try append(Self.line("appended_after_save"), to: log.path)
    XCTAssertEqual(
      collector.waitForRecords(3).map(\.name), ["first", "added_by_save", "appended_after_save"])
    XCTAssertEqual(collector.records.count, 3, "nothing read twice")
    let place = try XCTUnwrap(RecordedLogs.Place(collector.records[2].outputs[0].extra["log_position"]))
    XCTAssertEqual(place.lines, 4, "the lines number on across the save")
    XCTAssertEqual(collector.records[2].outputs[0].extra["line"], .int(4))
    try await server.shutdown()
  }

  func testALineLongerThanALineMayHoldIsReportedWithItsPlaceAndSkipped() async throws {
    let log = directory.appendingPathComponent("pixel.txt")
    let long = 3 * FirebaseLogParser.byteLimit
    let handle = try XCTUnwrap(
      FileManager.default.createFile(atPath: log.path, contents: Data(Self.line("before").utf8))
        ? FileHandle(forWritingAtPath: log.path) : nil)
    handle.seekToEndOfFile()
    // An entry cut by the long line, the long line itself (no newline for 3 MiB), then an entry.
    handle.write(Data("V/FA-SVC  ( 1): Logging event: origin=app,name=cut,params=Bundle[{a=".utf8))
    for _ in 0..<(long / 65_536) { handle.write(Data(repeating: UInt8(ascii: "x"), count: 65_536)) }
    handle.write(Data(("\n" + Self.line("after")).utf8))
    try handle.close()
    let (server, collector) = try await startServer()
    try server.follow(LogInput(format: .firebase, path: log.path))
    XCTAssertEqual(collector.waitForRecords(2).map(\.name), ["before", "after"])
    let length = long + "V/FA-SVC  ( 1): Logging event: origin=app,name=cut,params=Bundle[{a=".utf8.count
    XCTAssertTrue(
      eventually {
        problems(collector).contains(
          "\(log.path) line 2: the line holds \(length) bytes, more than the \(FirebaseLogParser.byteLimit) a line may; skipped"
        )
      }, "\(problems(collector))")
    XCTAssertEqual(collector.records[1].outputs[0].extra["line"], .int(3), "the long line is counted")
    try await server.shutdown()
    XCTAssertEqual(server.statistics.rejected[.badLogEntry], 1)
  }

  func testALineBufferLooksAtEachByteOnceAndHoldsNoMoreThanItsLimit() {
    var buffer = LogLineBuffer(limit: 100)
    var position = LogPosition()
    var pieces: [LogLineBuffer.Piece] = []
    for _ in 0..<50 {
      buffer.append(ArraySlice(repeating: UInt8(ascii: "y"), count: 30))
      while let piece = buffer.next(advancing: &position) { pieces.append(piece) }
      XCTAssertLessThanOrEqual(buffer.held, 100 + 30)
    }
    buffer.append(ArraySlice(Array("end\nok\nrest".utf8)))
    while let piece = buffer.next(advancing: &position) { pieces.append(piece) }
    XCTAssertEqual(pieces, [.overlong(bytes: 1_503), .line("ok")])
    XCTAssertEqual(buffer.finish(advancing: &position), .line("rest"))
    XCTAssertEqual(position.offset, 1_500 + 11)
    XCTAssertEqual(position.lines, 2)
  }

  func testAnEntryOfManyParametersIsReadWhole() throws {
    let count = 20_000
    let parameters = (0..<count).map { "p\($0)=\($0)" }.joined(separator: ", ")
    var parser = FirebaseLogParser()
    let items = parser.feed(
      "V/FA-SVC  ( 1): Logging event: origin=app,name=big,params=Bundle[{ga_event_origin(_o)=app, \(parameters)}]"
    )
    guard case .entry(let entry)? = items.first else { return XCTFail("\(items)") }
    let event = FirebaseLogRecords.ingested(entry, input: "pixel")
    XCTAssertEqual(event.properties.count, count)
    XCTAssertEqual(event.properties["p19999"], .int(19_999))
    XCTAssertEqual(Payload.object(event.annotations["sdk_parameters"])["ga_event_origin"], "app")
  }
}
