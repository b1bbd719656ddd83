import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeRecording

/// A JSON value compared without key order and with every number as a `Double`: the common ground
/// of our parser and Foundation's `JSONDecoder`, which serves as the oracle.
enum CanonicalJSON: Decodable, Equatable {
  case null
  case bool(Bool)
  case number(Double)
  case string(String)
  case array([CanonicalJSON])
  case object([String: CanonicalJSON])

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Double.self) {
      self = .number(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let values = try? container.decode([CanonicalJSON].self) {
      self = .array(values)
    } else {
      self = .object(try container.decode([String: CanonicalJSON].self))
    }
  }

  init(_ value: PropertyValue) {
    switch value {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .int(let number): self = .number(Double(number))
    // Foundation reads an integer past Int's range as the nearest double.
    case .largeInteger(let number): self = .number(number.doubleValue)
    case .double(let number): self = .number(number)
    case .string(let text): self = .string(text)
    case .date(let date): self = .string(ISO8601Timestamp.string(from: date))
    case .array(let values): self = .array(values.map(CanonicalJSON.init))
    case .object(let properties):
      self = .object(
        Dictionary(properties.map { ($0.key, CanonicalJSON($0.value)) }, uniquingKeysWith: { $1 }))
    }
  }

  /// Foundation's reading of `bytes`, or `nil` if it rejects them.
  static func oracle(_ bytes: [UInt8]) -> CanonicalJSON? {
    try? JSONDecoder().decode(CanonicalJSON.self, from: Data(bytes))
  }

  /// Our parser's reading of `bytes`, or `nil` if it rejects them.
  static func ours(_ bytes: [UInt8]) -> CanonicalJSON? {
    bytes.withUnsafeBufferPointer { buffer in (try? JSONParser.parse(buffer)).map(CanonicalJSON.init) }
  }
}

final class JSONOracleTests: XCTestCase {
  func testGeneratedRecordsRoundTripAndMatchFoundation() throws {
    var generator = RecordGenerator(seed: 42)
    for seq in 1...1500 {
      let record = generator.record(seq: UInt64(seq))
      var bytes: [UInt8] = []
      RecordLineEncoder.appendLine(record, to: &bytes)
      XCTAssertEqual(bytes.last, 0x0A)
      XCTAssertEqual(bytes.filter { $0 == 0x0A }.count, 1, "one line per record")
      bytes.removeLast()
      let decoded = try RecordLineDecoder.decode(bytes)
      XCTAssertEqual(decoded, .record(record), "seq \(seq): \(String(decoding: bytes, as: UTF8.self))")
      let oracle = CanonicalJSON.oracle(bytes)
      XCTAssertNotNil(oracle, "Foundation rejects our line for seq \(seq)")
      XCTAssertEqual(CanonicalJSON.ours(bytes), oracle, "seq \(seq)")
    }
  }

  func testHandWrittenEdgeCasesMatchFoundation() {
    let cases = [
      #""plain""#, #""esc \" \\ \/ \b \f \n \r \t""#, #""\u0000\u001f\u00e9\u20AC""#,
      #""\ud83d\ude00 smile""#,
      #""mixed é \n 漢""#, "0", "-0", "-1", "1.5", "1e3", "1E+3", "2.5e-3", "-0.0", "12345678901234567890",
      "-9223372036854775808", "9223372036854775807", "9223372036854775808", "1e308", "5e-324", "123.456e-7",
      "[]", "{}", "[1,[2,[3,[4,{\"a\":[null,true,false]}]]]]", "{\"a\":{\"b\":{\"c\":{}}}}",
      " { \"k\" : [ 1 , 2 ] , \"z\" : \"\" } ", "\"\u{7F}\"",
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      let oracle = CanonicalJSON.oracle(bytes)
      XCTAssertNotNil(oracle, "Foundation rejects \(text)")
      XCTAssertEqual(CanonicalJSON.ours(bytes), oracle, text)
    }
  }

  func testInvalidInputsAreRejectedLikeFoundation() {
    let cases = [
      "", "{", "}", "{\"a\" 1}", "{\"a\":}", "{1:2}", "\"\\x\"", "01", "1.", ".5", "-", "+1",
      "[1 2]", "tru", "nul", "\"abc", "\"a\u{1}b\"", "\"\\u12\"", "\"\\uZZZZ\"", "[1]]", "{\"a\":1}x", "NaN",
      "Infinity", "1e", "1e+", "'single'",
    ]
    for text in cases {
      let bytes = Array(text.utf8)
      XCTAssertNil(CanonicalJSON.oracle(bytes), "Foundation accepts \(text)")
      XCTAssertNil(CanonicalJSON.ours(bytes), "we accept \(text)")
    }
    let invalidUTF8: [[UInt8]] = [
      [0x22, 0xFF, 0x22], [0x22, 0xC0, 0x80, 0x22], [0x22, 0xED, 0xA0, 0x80, 0x22], [0x22, 0xE2, 0x82, 0x22],
    ]
    for bytes in invalidUTF8 {
      XCTAssertNil(CanonicalJSON.oracle(bytes), "Foundation accepts \(bytes)")
      XCTAssertNil(CanonicalJSON.ours(bytes), "we accept \(bytes)")
    }
  }

  /// Where Foundation on Linux is lenient (trailing commas) or picks the first of repeated keys,
  /// we follow RFC 8259 strictly and Python's `json` (the last repeated key wins, in first place).
  func testStrictWhereFoundationIsLenient() throws {
    for text in ["[1,]", "{\"a\":1,}", "[1,,2]"] {
      XCTAssertNil(CanonicalJSON.ours(Array(text.utf8)), "we accept \(text)")
    }
    let value = try Array(#"{"dup":1,"x":0,"dup":2}"#.utf8).withUnsafeBufferPointer {
      try JSONParser.parse($0)
    }
    XCTAssertEqual(value, ["dup": 2, "x": 0])
  }

  func testTimestampsRoundTripToTheMillisecond() {
    for milliseconds: Int64 in [
      0, -1, 1, 951_782_400_000, 1_795_255_204_210, 253_402_300_799_999, -62_135_596_800_000,
    ] {
      let text = ISO8601Timestamp.string(milliseconds: milliseconds)
      XCTAssertEqual(text.utf8.count, 24, text)
      XCTAssertEqual(ISO8601Timestamp.milliseconds(from: text), milliseconds, text)
    }
    XCTAssertEqual(ISO8601Timestamp.string(milliseconds: -1), "1969-12-31T23:59:59.999Z")
    XCTAssertEqual(ISO8601Timestamp.string(milliseconds: 951_782_400_000), "2000-02-29T00:00:00.000Z")
    XCTAssertEqual(ISO8601Timestamp.milliseconds(from: "2026-11-21T11:00:04.2+01:00"), 1_795_255_204_200)
    XCTAssertEqual(ISO8601Timestamp.milliseconds(from: "2026-11-21T10:00:04.21099Z"), 1_795_255_204_210)
    // Years outside 0…9999 are written so that the parser rejects them rather than misreading.
    let far = ISO8601Timestamp.string(milliseconds: 300_000_000_000_000)
    XCTAssertNil(ISO8601Timestamp.milliseconds(from: far), far)
    XCTAssertNil(ISO8601Timestamp.milliseconds(from: "2026-11-21T10:00:04"))
    XCTAssertNil(ISO8601Timestamp.milliseconds(from: "2026-13-21T10:00:04Z"))
  }

  func testLoneSurrogateEscapesBecomeReplacementCharacters() throws {
    let bytes = Array(#"["\ud800x","\udc00","\ud800\u0041"]"#.utf8)
    let value = try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }
    XCTAssertEqual(value, ["\u{FFFD}x", "\u{FFFD}", "\u{FFFD}A"])
  }

  func testDeepNestingIsAnErrorNotACrash() {
    let bytes = Array(String(repeating: "[", count: 100_000).utf8)
    XCTAssertThrowsError(try bytes.withUnsafeBufferPointer { try JSONParser.parse($0) }) { error in
      XCTAssertTrue("\(error)".contains("nesting deeper than 256"), "\(error)")
    }
  }

  /// Mutates valid lines byte by byte: both parsers must agree on accepting and on the value.
  func testMutatedLinesAgreeWithFoundation() {
    var generator = RecordGenerator(seed: 7)
    let noise = Array(#"{}[],:"\ 0123456789eE.-+tfnaul"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF]
    var accepted = 0
    for seq in 1...800 {
      var bytes = Array(RecordLineEncoder.line(generator.record(seq: UInt64(seq))).utf8)
      for _ in 0..<generator.int(1...3) {
        let position = generator.int(0...(bytes.count - 1))
        switch generator.int(0...2) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(noise.randomElement(using: &generator.random)!, at: position)
        default: bytes[position] = noise.randomElement(using: &generator.random)!
        }
      }
      let oracle = CanonicalJSON.oracle(bytes)
      let ours = CanonicalJSON.ours(bytes)
      if oracle != nil { accepted += 1 }
      XCTAssertEqual(ours, oracle, "line: \(String(decoding: bytes, as: UTF8.self))")
      // The record decoder never crashes on it either.
      _ = try? RecordLineDecoder.decode(bytes)
    }
    XCTAssertGreaterThan(accepted, 20, "some mutations stay valid JSON")
  }
}
