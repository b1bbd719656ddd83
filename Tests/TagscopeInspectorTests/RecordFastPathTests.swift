import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeInspector
@testable import TagscopeRecording
@testable import TagscopeTimeline

/// The decoder's fast path against its general path as the oracle.
final class RecordFastPathTests: XCTestCase {
  func fast(_ bytes: [UInt8]) -> Record? {
    bytes.withUnsafeBufferPointer { try? RecordFastPath.decode($0) }
  }

  func general(_ bytes: [UInt8]) -> RecordingLine? {
    bytes.withUnsafeBufferPointer { try? RecordLineDecoder.decodeGeneral($0) }
  }

  func testGeneratedRecordsTakeTheFastPathAndDecodeEqually() {
    var generator = RecordGenerator(seed: 1234)
    for seq in 1...1500 {
      let record = generator.record(seq: UInt64(seq))
      let bytes = Array(RecordLineEncoder.line(record).utf8)
      XCTAssertEqual(fast(bytes), record, "seq \(seq)")
      XCTAssertEqual(general(bytes), .record(record))
    }
  }

  func testMutatedLinesNeverDisagree() {
    var generator = RecordGenerator(seed: 77)
    let noise = Array(#"{}[],:"\ 0123456789eE.-+tfnaul"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
    var taken = 0
    for seq in 1...3000 {
      var bytes = Array(RecordLineEncoder.line(generator.record(seq: UInt64(seq))).utf8)
      for _ in 0..<generator.int(1...2) {
        let position = generator.int(0...(bytes.count - 1))
        switch generator.int(0...2) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(noise.randomElement(using: &generator.random)!, at: position)
        default: bytes[position] = noise.randomElement(using: &generator.random)!
        }
      }
      if let record = fast(bytes) {
        taken += 1
        XCTAssertEqual(general(bytes), .record(record), "line: \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    XCTAssertGreaterThan(taken, 100)
  }

  func testUnusualLinesFallBackToTheGeneralPath() throws {
    let lines = [
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","seq":2}"#,
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","x":1,"x":2}"#,
      #"{"format":"tagscope-recording","version":1,"seq":1}"#,
      #"{"dropped":2,"time":"2026-11-21T10:00:00.000Z"}"#,
    ]
    XCTAssertNil(fast(Array(lines[0].utf8)))
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(lines[0]).seq, 2, "the last repeated field wins")
    XCTAssertEqual(try RecordLineDecoder.decodeRecord(lines[1]).extra, ["x": 2])
    XCTAssertNil(fast(Array(lines[2].utf8)))
    guard case .header = try RecordLineDecoder.decode(lines[2]) else { return XCTFail("a header") }
    guard case .dropped = try RecordLineDecoder.decode(lines[3]) else { return XCTFail("a marker") }
    // Nesting is counted alike: 256 levels in all is the limit on both paths.
    func nested(_ levels: Int) -> [UInt8] {
      Array(
        (#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","properties":{"p":"#
          + String(repeating: "[", count: levels) + String(repeating: "]", count: levels) + "}}").utf8)
    }
    XCTAssertNotNil(fast(nested(254)))
    XCTAssertNotNil(general(nested(254)))
    XCTAssertNil(fast(nested(255)))
    XCTAssertNil(general(nested(255)))
  }
}
