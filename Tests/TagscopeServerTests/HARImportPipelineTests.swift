import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// `CaptureImport` reads and decodes entries on a thread of its own while the calling thread
/// delivers and writes the entries before them: the records, their numbers and the account stay
/// in the capture's order over many chunks, and a writer that fails stops the reader.
final class HARImportPipelineTests: XCTestCase {
  private struct WriteFailed: Error {}

  /// Entry `index`: an Amplitude event named `Play <index>`, a request to another host every
  /// seventh, a malformed one (no URL) every eleventh.
  private func entry(_ index: Int) -> String {
    if index % 11 == 5 {
      return #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST"}}"#
    }
    let url = index % 7 == 3 ? "https://example.com/track" : "https://api2.amplitude.com/2/httpapi"
    let body =
      #"{\"api_key\":\"amp-key\",\"events\":[{\"event_type\":\"Play \#(index)\",\"user_id\":\"user-42\"}]}"#
    return #"{"startedDateTime":"2026-11-20T07:30:00Z","request":{"method":"POST","url":"\#(url)","#
      + #""headers":[{"name":"Content-Type","value":"application/json"}],"postData":{"text":"\#(body)"}},"#
      + #""response":{"status":200}}"#
  }

  private func importing(_ count: Int, emit: ([Record]) throws -> Void) throws -> CaptureImport.Summary {
    let text = #"{"log":{"entries":["# + (0..<count).map(entry).joined(separator: ",") + "]}}"
    var bytes = Array(text.utf8)
    return try bytes.withUnsafeMutableBufferPointer { buffer in
      try CaptureImport(hosts: InterceptedHosts()).run(bytes: UnsafeBufferPointer(buffer), emit: emit)
    }
  }

  func testManyChunksKeepTheCapturesOrder() throws {
    let count = 2_000
    var records: [Record] = []
    let summary = try importing(count) { records += $0 }
    let decoded = (0..<count).filter { $0 % 11 != 5 && $0 % 7 != 3 }
    XCTAssertEqual(records.map(\.name), decoded.map { "Play \($0)" })
    XCTAssertEqual(records.map(\.seq), (1...UInt64(decoded.count)).map { $0 })
    XCTAssertEqual(summary.entries, count)
    XCTAssertEqual(summary.decoded, decoded.count)
    XCTAssertEqual(summary.records, decoded.count)
    XCTAssertEqual(
      summary.problems.map { "\($0.entry ?? -1) \($0.field)" },
      (0..<count).filter { $0 % 11 == 5 }.map { "\($0) request.url" })
    XCTAssertEqual(summary.unread.map(\.firstEntry), [3])
    XCTAssertEqual(summary.unread.map(\.count), [(0..<count).filter { $0 % 7 == 3 && $0 % 11 != 5 }.count])
  }

  /// The writer fails on its third batch while the reader waits for room far ahead: the import
  /// throws the writer's error and returns, the reader stopped.
  func testAWriterThatFailsStopsTheReader() throws {
    var batches = 0
    XCTAssertThrowsError(
      try importing(5_000) { _ in
        batches += 1
        if batches == 3 { throw WriteFailed() }
      }
    ) { error in
      XCTAssertTrue(error is WriteFailed, "\(error)")
    }
    XCTAssertEqual(batches, 3)
  }

  /// The hand-off keeps its chunks' order, lets a reader past its capacity only once a chunk is
  /// taken, gives the end after the last chunk, and releases a waiting reader when cancelled.
  func testHandoffIsOrderedBoundedAndCancellable() throws {
    let handoff = CaptureHandoff(capacity: 1)
    XCTAssertTrue(handoff.put([.problem(HARProblem(entry: 0, field: "a", message: ""))]))
    let second = expectation(description: "the second chunk is handed on once the first is taken")
    Thread.detachNewThread {
      XCTAssertTrue(handoff.put([.problem(HARProblem(entry: 1, field: "b", message: ""))]))
      handoff.finish(.success(nil))
      second.fulfill()
    }
    var fields: [String] = []
    loop: while true {
      switch handoff.take() {
      case .steps(let steps):
        for case .problem(let problem) in steps { fields.append(problem.field) }
      case .end(let outcome):
        XCTAssertNil(try outcome.get())
        break loop
      }
    }
    wait(for: [second], timeout: 60)
    XCTAssertEqual(fields, ["a", "b"])

    let full = CaptureHandoff(capacity: 1)
    XCTAssertTrue(full.put([]))
    let released = expectation(description: "a reader waiting for room is released by a cancel")
    Thread.detachNewThread {
      XCTAssertFalse(full.put([]))
      released.fulfill()
    }
    full.cancel()
    wait(for: [released], timeout: 60)
    XCTAssertFalse(full.put([]))
  }

  /// Only a lone `\udc80`…`\udcff` escape is a byte written as a surrogate; a pair, an escaped
  /// backslash before the same letters, or an escape cut by the string's end are not.
  func testEscapedBytesAreFoundWhereverTheyLie() {
    func found(_ source: String) -> Bool {
      Array(source.utf8).withUnsafeBufferPointer { HAREntryReader.hasEscapedBytes($0) }
    }
    XCTAssertTrue(found(#""\udcff""#))
    XCTAssertTrue(found(#""abc \" \\ \n \udc80""#))
    XCTAssertTrue(found(String(repeating: "x", count: 5_000) + #"\uDCA0""#))
    XCTAssertFalse(found(#""\ud83d\udc80""#))
    XCTAssertFalse(found(#""\\udcff""#))
    XCTAssertFalse(found(#""\u00e9 \" plain""#))
    XCTAssertFalse(found(#""\udc""#))
    XCTAssertFalse(found(""))
  }
}
