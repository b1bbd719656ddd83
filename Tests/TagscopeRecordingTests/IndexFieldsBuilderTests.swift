import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeRecording

/// The record decoder with the timeline's index builder against the full record as the oracle:
/// a line it reads as a record is a record for the full decoder, with the same index fields.
final class IndexFieldsBuilderTests: XCTestCase {
  func scan(_ bytes: [UInt8]) -> IndexFields? {
    var builder = IndexFieldsBuilder()
    return bytes.withUnsafeBufferPointer {
      (try? RecordDecoder.decode($0, into: &builder)) == .record ? builder.fields : nil
    }
  }

  func oracle(_ bytes: [UInt8]) -> IndexFields? {
    guard case .record(let record)? = try? RecordLineDecoder.decode(bytes) else { return nil }
    return IndexFields(record)
  }

  func testGeneratedRecordsAreAcceptedWithTheDecodersFields() {
    var generator = RecordGenerator(seed: 99)
    for seq in 1...1500 {
      var record = generator.record(seq: UInt64(seq))
      if seq % 5 == 0 {
        record.kind = .consent
        record.properties["scope"] = "category:marketing"
        record.properties["granted"] = .bool(seq % 2 == 0)
      }
      if seq % 7 == 0 {
        record.outputs.append(ProviderOutput(provider: "p", status: .blocked, reason: "disabled"))
      }
      let bytes = Array(RecordLineEncoder.line(record).utf8)
      let fields = scan(bytes)
      XCTAssertNotNil(fields, "the scanner accepts \(String(decoding: bytes, as: UTF8.self))")
      XCTAssertEqual(fields, IndexFields(record))
      XCTAssertEqual(fields, oracle(bytes))
    }
  }

  func testMutatedLinesNeverDisagreeWithTheDecoder() {
    var generator = RecordGenerator(seed: 5)
    let noise = Array(#"{}[],:"\ 0123456789eE.-+tfnaul"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
    var accepted = 0
    var rejected = 0
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
      if let fields = scan(bytes) {
        accepted += 1
        XCTAssertEqual(fields, oracle(bytes), "line: \(String(decoding: bytes, as: UTF8.self))")
      } else {
        rejected += 1
        XCTAssertNil(oracle(bytes), "line: \(String(decoding: bytes, as: UTF8.self))")
      }
    }
    XCTAssertGreaterThan(accepted, 100)
    XCTAssertGreaterThan(rejected, 100)
  }

  func testHandWrittenLines() {
    let cases: [(String, Bool)] = [
      (#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#, true),
      (
        #"{"name":"a","kind":"screen","time":"2026-11-21T10:00:00+01:00","seq":1,"context":null,"outputs":null}"#,
        true
      ),
      // A repeated field keeps its last value, as the tree parser does.
      (#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","seq":2}"#, true),
      (
        #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","format":"tagscope-recording"}"#,
        false
      ),
      (#"{"seq":-1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#, false),
      (#"{"seq":1.0,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#, false),
      (
        #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","outputs":[{"provider":"p"}]}"#,
        false
      ),
      (#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a\u00e9\ud83d\ude00"}"#, true),
      (
        #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","context":{"session":{"id":"s"}}}"#,
        false
      ),
      (
        #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","issues":[{"code":"c","message":"m","x":1}]}"#,
        true
      ),
      (#"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"} x"#, false),
      (#"{"dropped":3,"time":"2026-11-21T10:00:00.000Z"}"#, false),
    ]
    for (line, acceptedByScanner) in cases {
      let bytes = Array(line.utf8)
      let fields = scan(bytes)
      XCTAssertEqual(fields != nil, acceptedByScanner, line)
      if let fields { XCTAssertEqual(fields, oracle(bytes), line) }
    }
  }
}
