import AnalyticsHub
import TagscopeRecording
import XCTest

/// The one JSON writer's containers, its streaming to a sink and its script-safe strings.
final class JSONWriterTests: XCTestCase {
  private struct SinkFailure: Error {}

  private let big: PropertyValue = .array(
    (0..<200).map { index in
      .object(["name": .string("item \(index) \u{2028}\"é\""), "values": [1, 2.5, true, .null]])
    })

  func testObjectsAndArraysPutTheirCommas() {
    let text = JSONWriter.string { out in
      out.object { out in
        out.key("empty", first: true)
        out.array([Int]()) { $0.int($1) }
        out.key("numbers")
        out.array([1, 2, 3]) { $0.int($1) }
        out.key("maybe")
        out.string(orNull: nil)
        out.key("line")
        out.int(orNull: 7)
      }
    }
    XCTAssertEqual(text, #"{"empty":[],"numbers":[1,2,3],"maybe":null,"line":7}"#)
  }

  func testStreamingHandsOverTheSameBytesInChunks() throws {
    let whole = JSONWriter.string { $0.value(big) }
    var chunks: [[UInt8]] = []
    let sink: (UnsafeBufferPointer<UInt8>) -> Void = { chunks.append(Array($0)) }
    try JSONWriter.stream(chunkSize: 64, to: sink) { $0.value(big) }
    XCTAssertGreaterThan(chunks.count, 100)
    XCTAssertEqual(String(decoding: chunks.joined(), as: UTF8.self), whole)
  }

  func testStreamingStopsAtTheSinksFirstError() {
    var calls = 0
    let sink: (UnsafeBufferPointer<UInt8>) throws -> Void = { _ in
      calls += 1
      throw SinkFailure()
    }
    XCTAssertThrowsError(try JSONWriter.stream(chunkSize: 64, to: sink) { $0.value(big) }) {
      XCTAssertTrue($0 is SinkFailure)
    }
    XCTAssertEqual(calls, 1)
  }

  func testLineSeparatorsAreEscapedWhenAsked() {
    let text = "a\u{2028}b\u{2029}c\u{2027}\u{202A}é\n"
    XCTAssertEqual(
      JSONWriter.string { $0.string(text) }, "\"\(text.replacingOccurrences(of: "\n", with: "\\n"))\"")
    let escaped = JSONWriter.string { out in
      out.escapesLineSeparators = true
      out.object(["k\u{2028}": .array([.string(text)])])
    }
    XCTAssertEqual(escaped, #"{"k\u2028":["a\u2028b\u2029c"# + "\u{2027}\u{202A}é" + #"\n"]}"#)
  }
}
