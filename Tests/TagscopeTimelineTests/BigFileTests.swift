import Foundation
import TagscopeTestSupport
import XCTest

@testable import TagscopeRecording
@testable import TagscopeTimeline

#if os(Linux)
  /// A 1 GB recording is streamed, never loaded at once. The file is sparse (a 1 GB hole of NUL
  /// bytes forms one huge line), so the test needs no disk space and runs in about a second; the
  /// benchmark measures the same bound on a real 1,000,000-record recording.
  final class BigFileTests: XCTestCase {
    static func residentBytes() -> Int {
      guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
      let fields = text.split(separator: " ")
      return (Int(fields[1]) ?? 0) * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    func testAOneGigabyteRecordingIsStreamedInBoundedMemory() throws {
      let directory = try TemporaryDirectory()
      let url = directory.file("big.jsonl")
      let gigabyte: UInt64 = 1 << 30
      var head: [UInt8] = []
      RecordLineEncoder.appendLine(RecordingHeader(app: "big"), to: &head)
      RecordLineEncoder.appendLine(Record(seq: 1, time: Date(), kind: .screen, name: "first"), to: &head)
      var tail: [UInt8] = [0x0A]
      RecordLineEncoder.appendLine(Record(seq: 2, time: Date(), kind: .screen, name: "last"), to: &tail)
      let file = try LineFile.create(path: url.path)
      try file.write(head)
      let handle = try FileHandle(forUpdating: url)
      try handle.truncate(atOffset: gigabyte)
      try handle.close()
      try file.write(tail)
      let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? UInt64
      XCTAssertEqual(size, gigabyte + UInt64(tail.count))

      let before = Self.residentBytes()
      var peak = before
      let reader = try RecordingReader(path: url.path)
      var seqs: [UInt64] = []
      var problems: [LineProblem] = []
      while let entry = try reader.next() {
        peak = max(peak, Self.residentBytes())
        switch entry {
        case .record(let record, _): seqs.append(record.seq)
        case .problem(let problem): problems.append(problem)
        case .dropped: XCTFail("no marker in this file")
        }
      }
      XCTAssertEqual(seqs, [1, 2])
      XCTAssertEqual(problems.map(\.line), [3])
      XCTAssertEqual(
        problems.first?.reason,
        "line of \(gigabyte - UInt64(head.count)) bytes is longer than the 64 MiB limit")
      let growth = peak - before
      XCTAssertLessThan(growth, 200 << 20, "resident memory grew by \(growth >> 20) MiB for a 1 GiB file")
    }
  }
#endif
