import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeRecording

/// The one record decoder with each of its builders — the full record, the timeline's index
/// fields, the plan's content key — against Foundation as the oracle: they accept exactly the same
/// lines, never a line Foundation rejects, and agree on what they read.
final class RecordDecoderBuildersTests: XCTestCase {
  private struct Readings {
    var record: Record?
    var index: IndexFields?
    var keyed: Bool
    var seq: UInt64?
  }

  private func read(_ bytes: [UInt8]) -> Readings {
    bytes.withUnsafeBufferPointer { buffer in
      var record: Record?
      if case .record(let decoded)? = try? RecordLineDecoder.decode(buffer) { record = decoded }
      var index = IndexFieldsBuilder()
      let indexed = (try? RecordDecoder.decode(buffer, into: &index)) == .record
      var key = RecordContentKeyBuilder()
      let keyed = (try? RecordDecoder.decode(buffer, into: &key)) == .record
      return Readings(
        record: record, index: indexed ? index.fields : nil, keyed: keyed, seq: keyed ? key.seq : nil)
    }
  }

  /// Checks the builders agree, and with Foundation when `foundationReadsKeysAlike` (Foundation's
  /// decoder keeps the first of a repeated key; we keep the last, like JavaScript and Python).
  private func check(
    _ bytes: [UInt8], foundationReadsKeysAlike: Bool = true, file: StaticString = #filePath,
    line: UInt = #line
  ) {
    let text = String(decoding: bytes, as: UTF8.self)
    let readings = read(bytes)
    XCTAssertEqual(readings.index, readings.record.map(IndexFields.init), text, file: file, line: line)
    XCTAssertEqual(readings.keyed, readings.record != nil, text, file: file, line: line)
    XCTAssertEqual(readings.seq, readings.record?.seq, text, file: file, line: line)
    guard let record = readings.record else { return }
    XCTAssertNotNil(
      CanonicalJSON.oracle(bytes), "Foundation rejects a line we read: \(text)", file: file, line: line)
    guard foundationReadsKeysAlike else { return }
    guard case .object(let object)? = CanonicalJSON.oracle(bytes) else {
      return XCTFail("Foundation rejects a line the decoder read: \(text)", file: file, line: line)
    }
    XCTAssertEqual(object["seq"], .number(Double(record.seq)), text, file: file, line: line)
    XCTAssertEqual(object["kind"], .string(record.kind.rawValue), text, file: file, line: line)
    XCTAssertEqual(object["name"], .string(record.name), text, file: file, line: line)
    if case .object? = object["properties"] {
      XCTAssertEqual(
        object["properties"], CanonicalJSON(.object(record.properties)), text, file: file, line: line)
    }
  }

  func testTheSchemaFindsEveryFieldByItsNameAndNothingElse() {
    let objects: [RecordObject] = [.record, .context, .session, .output, .call, .violation, .issue]
    for object in objects {
      XCTAssertEqual(object.requiredMask, object.required.reduce(0) { $0 | $1.bit }, "\(object)")
      for field in object.fields {
        var name = field.text
        XCTAssertEqual(name.withUTF8 { object.field(named: $0) }, field, "\(object).\(name)")
      }
      let names = object.names
      for other in RecordField.allCases where !names.contains(other.text) {
        var name = other.text
        XCTAssertNil(name.withUTF8 { object.field(named: $0) }, "\(object) has no \(name)")
      }
      for var unknown in ["", "x", "seqq", "Seq", "propertie", "context "] {
        XCTAssertNil(unknown.withUTF8 { object.field(named: $0) }, "\(object) \(unknown)")
      }
    }
  }

  func testGeneratedAndMutatedLines() {
    var generator = RecordGenerator(seed: 11)
    let noise = Array(#"{}[],:"\ 0123456789eE.-+tfnaul"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xA0]
    var accepted = 0
    for seq in 1...2000 {
      var bytes = Array(RecordLineEncoder.line(generator.record(seq: UInt64(seq))).utf8)
      check(bytes)
      for _ in 0..<generator.int(1...2) {
        let position = generator.int(0...(bytes.count - 1))
        switch generator.int(0...2) {
        case 0: bytes.remove(at: position)
        case 1: bytes.insert(noise.randomElement(using: &generator.random)!, at: position)
        default: bytes[position] = noise.randomElement(using: &generator.random)!
        }
      }
      if read(bytes).record != nil { accepted += 1 }
      check(bytes)
    }
    XCTAssertGreaterThan(accepted, 100, "some mutations stay records")
  }

  func testEdgeCases() {
    let head = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a""#
    let invalid: [[UInt8]] = [
      Array((head + #","x":""#).utf8) + [0xFF] + Array(#""}"#.utf8),
      Array((head + #","x":""#).utf8) + [0xED, 0xA0, 0x80] + Array(#""}"#.utf8),
      Array((head + #","x":""#).utf8) + [0xC3] + Array(#""}"#.utf8),
    ]
    let repeatedKeys = [
      head + #","seq":2}"#,
      head + #","properties":{"x":1,"x":2},"properties":null}"#,
      head + #","properties":{"scope":"s","granted":true,"scope":3}}"#,
      head + #","context":{"screen":"a"},"context":{}}"#,
      head + #","context":{"session":{"id":"s","state":"authenticated","id":"t"}}}"#,
      head + #","outputs":[{"provider":"p","status":"sent","violations":[]}],"outputs":[]}"#,
      head + #","name":"caf\u00e9"}"#,
    ]
    for line in repeatedKeys { check(Array(line.utf8), foundationReadsKeysAlike: false) }
    let last = read(Array(repeatedKeys[0].utf8)).record
    XCTAssertEqual(last?.seq, 2, "a repeated field keeps its last value")
    XCTAssertEqual(read(Array(repeatedKeys[1].utf8)).record?.properties, [:])
    XCTAssertNil(read(Array(repeatedKeys[2].utf8)).index?.consentScope)
    XCTAssertEqual(read(Array(repeatedKeys[4].utf8)).record?.context.session?.id, "t")
    XCTAssertEqual(read(Array(repeatedKeys[6].utf8)).record?.name, "café")
    let lines = [
      head + "}",
      head + #","outputs":[{"provider":"p","status":"sent","calls":[{"method":"m","x":[1,{}]}]}]}"#,
      head + #","\u0070roperties":{"a":"\ud83d\ude00"}}"#,
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"caf\u00e9"}"#,
      #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"caf\#u{E9}"}"#,
      head + #","x":"#,
      head + #","x":1e400}"#,
      head + #","x":-0.0e-0}"#,
      head + #","format":"tagscope-recording","version":1}"#,
      head + #","outputs":[{"provider":"p"}]}"#,
      head + #","issues":[{"code":"c"}]}"#,
      head + "} ",
      " " + head + "}\r",
      #"{"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#,
      #"{"dropped":2,"time":"2026-11-21T10:00:00.000Z"}"#,
      #"[1,2]"#,
      "",
    ]
    for bytes in lines.map({ Array($0.utf8) }) + invalid { check(bytes) }
  }

  func testDeepNestingIsAClearErrorForEveryBuilder() {
    let head = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a","properties":{"x":"#
    for body in [String(repeating: "[", count: 100_000), head + String(repeating: "[", count: 100_000)] {
      let bytes = Array(body.utf8)
      XCTAssertThrowsError(try RecordLineDecoder.decode(bytes)) { error in
        XCTAssertTrue("\(error)".contains("nesting deeper than 256 levels"), "\(error)")
      }
      let readings = read(bytes)
      XCTAssertNil(readings.index)
      XCTAssertFalse(readings.keyed)
    }
  }

  func testErrorsNameTheFieldWhateverItsDepth() {
    let head = #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a""#
    let cases: [(String, String)] = [
      (
        head + #","outputs":[{"provider":"p","status":"sent"},{"provider":"q","status":3}]}"#,
        "field 'outputs[1].status': expected a string, found the integer 3"
      ),
      (
        head + #","outputs":[{"provider":"p","status":"sent","calls":[{"method":"m"},{"name":"n"}]}]}"#,
        "field 'outputs[0].calls[1].method': missing"
      ),
      (
        head + #","context":{"history":["a",2]}}"#,
        "field 'context.history[1]': expected a string, found the integer 2"
      ),
      (head + #","context":{"session":{"id":"s"}}}"#, "field 'context.session.state': missing"),
      (
        head + #","issues":[{"code":"c","message":false}]}"#,
        "field 'issues[0].message': expected a string, found false"
      ),
      (
        #"{"seq":-1,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#,
        "field 'seq': expected an integer ≥ 0, found the integer -1"
      ),
      (
        #"{"seq":1.5,"time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a"}"#,
        "field 'seq': expected an integer ≥ 0, found the number 1.5"
      ),
      (
        #"{"seq":1,"time":"yesterday","kind":"screen","name":"a"}"#,
        "field 'time': expected an ISO 8601 timestamp, found \"yesterday\""
      ),
      // A syntax error later in the line comes first, as if the line were parsed before it is read.
      (
        #"{"seq":"one","time":"2026-11-21T10:00:00.000Z","kind":"screen","name":"a",}"#,
        "invalid JSON: unexpected character '}', an object key was expected at byte 75"
      ),
    ]
    for (line, expected) in cases {
      XCTAssertThrowsError(try RecordLineDecoder.decode(line), line) { error in
        XCTAssertEqual("\(error)", expected, line)
      }
    }
    // What the line is comes before what is wrong with it as a record.
    let header = #"{"seq":"x","format":"tagscope-recording","version":1,"app":"A"}"#
    guard case .header(let decoded)? = try? RecordLineDecoder.decode(header) else {
      return XCTFail("a line with a format field is a header")
    }
    XCTAssertEqual(decoded.app, "A")
    XCTAssertThrowsError(try RecordLineDecoder.decode(#"{"time":3,"dropped":2}"#)) { error in
      XCTAssertEqual("\(error)", "field 'time': expected a string, found the integer 3")
    }
  }
}
