import AnalyticsHub
import Foundation
import TagscopeFuzzing
import XCTest

@testable import TagscopeRecording

/// Bounded fuzzing passes (see ``FuzzRun``) over the JSON lexer and the record codec: every input is
/// either read or refused with a located error, what is read survives a round trip, and no input is
/// slow. (The recording reader's pass is in TagscopeTimelineTests.)
final class FuzzTests: XCTestCase {
  private static func corpus(seed: UInt64, count: Int) -> [[UInt8]] {
    var generator = RecordGenerator(seed: seed)
    return (1...count).map { Array(RecordLineEncoder.line(generator.record(seq: UInt64($0))).utf8) }
  }

  func testJSONLexerReadsOnlyWhatRoundTripsAndFoundationAccepts() {
    let corpus =
      Self.corpus(seed: 11, count: 24)
      + [#"{"a":[1,-0.5e3,true,null,"\u00e9\n"],"b":{"c":{}}}"#, "[]", #""x""#, "1e308"].map {
        Array($0.utf8)
      }
    let outcome = FuzzRun(name: "json-lexer").run(corpus: corpus, minimumInputs: 201) { input in
      let parsed = input.withUnsafeBufferPointer { buffer in
        Result { () throws(JSONSyntaxError) in try JSONParser.parse(buffer) }
      }
      let value: PropertyValue
      switch parsed {
      case .success(let read): value = read
      case .failure(let error):
        return (0...input.count).contains(error.offset)
          ? nil : "error offset \(error.offset) is outside the input"
      }
      let text = JSONText.value(value)
      guard let again = try? JSONParser.parse(text) else {
        return "its re-encoding does not parse: \(text.prefix(300))"
      }
      guard again == value else { return "its re-encoding reads differently: \(text.prefix(300))" }
      // Foundation refuses lone surrogate escapes (read as U+FFFD) and numbers that overflow or
      // underflow a double (read as ±infinity, written as the largest double, or as 0), and a zero
      // with an exponent (`0E2`, valid JSON).
      let source = String(decoding: input, as: UTF8.self).lowercased()
      let lenient =
        source.contains("\\ud") || source.range(of: #"e[+-]?[0-9]{3}"#, options: .regularExpression) != nil
        || source.range(of: #"(^|[^0-9.])0e"#, options: .regularExpression) != nil
      if !lenient && CanonicalJSON.oracle(input) == nil {
        return "accepted what Foundation refuses: \(String(decoding: input.prefix(300), as: UTF8.self))"
      }
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 200)
  }

  func testRecordDecoderReadsOnlyWhatRoundTrips() {
    let marker = RecordLineEncoder.line(
      DropMarker(count: 3, time: Date(timeIntervalSince1970: 1), afterSeq: 9, origin: "x"))
    let header = RecordLineEncoder.line(RecordingHeader(app: "A", device: "d"))
    let corpus = Self.corpus(seed: 12, count: 32) + [Array(marker.utf8), Array(header.utf8)]
    let outcome = FuzzRun(name: "record-line").run(corpus: corpus, minimumInputs: 201) { input in
      let line: RecordingLine
      do {
        line = try RecordLineDecoder.decode(input)
      } catch {
        return "\(error)".isEmpty ? "an error without a message" : nil
      }
      let encoded: String
      switch line {
      case .record(let record): encoded = RecordLineEncoder.line(record)
      case .header(let header): encoded = RecordLineEncoder.line(header)
      case .dropped(let marker): encoded = RecordLineEncoder.line(marker)
      }
      guard let again = try? RecordLineDecoder.decode(encoded) else {
        return "its re-encoding does not decode: \(encoded.prefix(300))"
      }
      return again == line ? nil : "its re-encoding decodes differently: \(encoded.prefix(300))"
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThan(outcome.inputs, 200)
  }
}
