import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// `HARReader` reads each entry where it lies, in one pass over at most its limit of bytes: an
/// entry of exactly the limit is read, one byte more is skipped with its size, and an entry that is
/// not read is lexed again only for its size and syntax, as a skip first would have found them.
final class HARReaderTests: XCTestCase {
  private let entry =
    #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST","url":"https://a.example/p","#
    + #""headers":[{"name":"A","value":"1"}]},"response":{"status":200}}"#

  private func walk(_ entries: [String], limit: Int) throws -> (outcomes: [String], ended: HARProblem?) {
    let text = #"{"log":{"entries":["# + entries.joined(separator: ",") + "]}}"
    var outcomes: [String] = []
    var bytes = Array(text.utf8)
    let ended = try bytes.withUnsafeMutableBufferPointer { buffer in
      try HARReader(entryLimit: limit).walk(UnsafeBufferPointer(buffer)) { result in
        switch result {
        case .success(let read): outcomes.append("\(read.index) \(read.url)")
        case .failure(let problem):
          outcomes.append("\(problem.entry ?? -1) \(problem.field): \(problem.message)")
        }
      }
    }
    return (outcomes, ended)
  }

  func testAnEntryOfExactlyTheLimitIsReadAndOneByteMoreIsSkipped() throws {
    let size = entry.utf8.count
    let exact = try walk([entry, entry], limit: size)
    XCTAssertEqual(exact.outcomes, ["0 https://a.example/p", "1 https://a.example/p"])
    XCTAssertNil(exact.ended)

    let over = try walk([entry, "{}", entry], limit: size - 1)
    XCTAssertEqual(
      over.outcomes,
      [
        "0 entry: \(size) bytes, over the \(size - 1) an entry may take: skipped (an SDK body is at most 20 MB)",
        "1 startedDateTime: missing",
        "2 entry: \(size) bytes, over the \(size - 1) an entry may take: skipped (an SDK body is at most 20 MB)",
      ])
    XCTAssertNil(over.ended)
  }

  /// A field's problem is reported and the walk goes on; broken JSON later in the same entry ends
  /// the walk instead, even past the limit, as a skip first would have.
  func testAnEntryNotReadIsLexedWholeForItsSyntax() throws {
    let wrongType = entry.replacingOccurrences(of: #""method":"POST""#, with: #""method":1"#)
    let read = try walk([wrongType, entry], limit: 1_000)
    XCTAssertEqual(read.outcomes, ["0 request.method: a string expected", "1 https://a.example/p"])

    let broken = wrongType.replacingOccurrences(of: #""status":200"#, with: #""status":2x"#)
    for limit in [1_000, 40] {
      let ended = try walk([entry, broken, entry], limit: limit)
      XCTAssertEqual(ended.outcomes.count, 1, "entry 0 read or too large, then the walk ends")
      XCTAssertEqual(ended.ended?.entry, 1)
      XCTAssertEqual(ended.ended?.field, "entry")
      XCTAssertTrue(ended.ended?.message.hasSuffix("the entries from here on are not read") == true)
    }
  }

  /// Deep nesting inside an entry counts the levels the entry sits in, as the whole file's do.
  func testNestingIsCountedFromTheFileTop() throws {
    let depth = JSONCursor.maximumDepth - 2
    let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let nested = entry.replacingOccurrences(of: #""response""#, with: #""x":\#(deep),"response""#)
    let walked = try walk([nested], limit: 100_000)
    XCTAssertEqual(walked.ended?.entry, 0)
    XCTAssertTrue(walked.ended?.message.contains("nesting deeper than") == true)
  }
}
