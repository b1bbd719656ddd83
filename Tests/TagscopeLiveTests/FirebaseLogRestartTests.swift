import Foundation
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import XCTest

@testable import TagscopeLive

/// Issue 42, item 6: `listen --log FILE --record R` started again on the same recording reads the
/// log on from its last recorded entry, as its SDK retries and native runs are taken once: 100
/// entries recorded, one more written, 101 records (not 201).
final class FirebaseLogRestartTests: XCTestCase {
  static func line(_ index: Int) -> String {
    "V/FA-SVC  ( 4120): Logging event: origin=app,name=entry_\(index),params=Bundle[{ga_event_origin(_o)=app, level=\(index)}]\n"
  }

  func testARestartedListenRecordsOnlyTheEntriesNotYetRecorded() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "fblog-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let log = directory.appendingPathComponent("pixel.log")
    try Data(((1...100).map(Self.line).joined() + "a line of another tag\n").utf8).write(to: log)
    let recording = directory.appendingPathComponent("out.jsonl")
    var options = ListenOptions(port: 0, recordPath: recording.path, headless: true)
    options.logs = [LogInput(format: .firebase, path: log.path)]

    let first = LockedArray<String>()
    _ = try await ListenRunner.run(
      options, output: { first.append($0) }, notices: { _ in },
      stop: {
        while !first.all.joined().contains("entry_100") { try? await Task.sleep(nanoseconds: 10_000_000) }
      })
    XCTAssertEqual(try recordedRecords(recording).count, 100)

    let handle = try XCTUnwrap(FileHandle(forWritingAtPath: log.path))
    handle.seekToEndOfFile()
    handle.write(Data(Self.line(101).utf8))
    try handle.close()
    let second = LockedArray<String>()
    let notices = LockedArray<String>()
    _ = try await ListenRunner.run(
      options, output: { second.append($0) }, notices: { notices.append($0) },
      stop: {
        while !second.all.joined().contains("entry_101") { try? await Task.sleep(nanoseconds: 10_000_000) }
      })
    let records = try recordedRecords(recording)
    XCTAssertEqual(records.count, 101, "\(second.all)")
    XCTAssertEqual(records.last?.name, "entry_101")
    XCTAssertEqual(records.last?.outputs.first?.extra["line"], .int(102))
    XCTAssertTrue(
      notices.all.contains {
        $0.hasSuffix("\(log.path): its entries up to line 100 are in the recording; reading on from line 101")
      },
      "\(notices.all)")
  }
}
