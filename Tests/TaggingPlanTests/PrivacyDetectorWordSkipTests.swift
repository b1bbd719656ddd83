import AnalyticsHub
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// ``PIILineTrigger/mayHoldPII(_:)`` reads a line 8 bytes at a time and runs the byte pass only
/// where it could find something: its answer is the byte pass's on every line, at every alignment.
final class PrivacyDetectorWordSkipTests: XCTestCase {
  private func assertSameAnswer(_ line: String, file: StaticString = #filePath, line number: UInt = #line) {
    var line = line
    line.withUTF8 { bytes in
      XCTAssertEqual(
        PIILineTrigger.mayHoldPII(bytes), PIILineTrigger.mayHoldPIIByteByByte(bytes),
        String(decoding: bytes, as: UTF8.self), file: file, line: number)
    }
  }

  /// Every detector's positive corpus in record lines, the demo's lines and the bench's line, each
  /// shifted by 0 to 8 letters (so every trigger meets every place in a word).
  func testCorporaAndDemoLinesGetTheBytePasssAnswer() throws {
    var bytes: [UInt8] = []
    for record in try DemoPlanTests.demoSession() { RecordLineEncoder.appendLine(record, to: &bytes) }
    var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    for (_, key, text) in PIICorpus.all {
      let key = key ?? "value"
      lines += [
        text, "{\"\(key)\":\"\(text)\"}",
        "{\"t\":\"2026-11-21T10:00:04.210Z\",\"\(key)\":\"\(text)\",\"n\":12}",
      ]
    }
    lines += [
      "{\"lat\":48.85661,\"lng\":2.35222}",
      "{\"seq\":1,\"contact\":\"call +33 6 12 34 56 78\",\"ip\":\"203.0.113.7\"}",
      "{\"phone\":12345678}", "{\"v\":\"12345678x\",\"mobile\":1}",
      "{\"id\":\"abcdefabcdefabcdefabcdefabcdefabcdef\"}",
      "{\"a\":\"fe80::1\"}", "{\"a\":\"b::c\"}", "{\"ab:cd\":\"ef:01\"}",
    ]
    for line in lines {
      for shift in 0...8 { assertSameAnswer(String(repeating: "x", count: shift) + line) }
    }
  }

  /// Random lines from fragments near every trigger and every word boundary.
  func testRandomLinesGetTheBytePasssAnswer() {
    let fragments = [
      "1", "23", "456", "7890", "12345678", "0612345678", "+", "(", ")", " ", "-", ".", "/", ":", "::", "@",
      "a", "e", "f", "g", "T", "x", "z", "J", "é", "_", "%", ",", "\"", "\\", "{", "}", "[", "]", "eyJ", "ey",
      "Bearer ", "basic ", "bearer", "\"phone\":", "\"tel\":", "mobile", "\"lat\":", "\"lng\":", "\"idfa\":",
      "\"time\":\"2026-11-21T10:00:04.210Z\"", "48.85661", ".1234", "6D92078A-8246-4BA4-AE5B-76104861E7DC",
      "abcdef", "0123456789abcdef", "dead-beef-", "fe80", "203.0.113.7", "4111", "\"name\":\"Sundell\"",
    ]
    var generator = SeededGenerator(seed: 4_712)
    var triggered = 0
    for _ in 0..<50_000 {
      var line = ""
      for _ in 0..<Int.random(in: 1...40, using: &generator) {
        line += fragments.randomElement(using: &generator) ?? ""
      }
      var copy = line
      if copy.withUTF8({ PIILineTrigger.mayHoldPIIByteByByte($0) }) { triggered += 1 }
      assertSameAnswer(line)
    }
    // Both answers are common.
    XCTAssertGreaterThan(triggered, 5_000)
    XCTAssertLessThan(triggered, 45_000)
  }

  /// Random lines of digit segments, run separators and the bytes that end them, between letters:
  /// the stretches ``PIIQuietStretch`` reads instead of the byte pass.
  func testRandomDigitStretchesGetTheBytePasssAnswer() {
    let fragments = [
      "0", "1", "12", "123", "1234", "12345678", "123456789", "0612345678", ".", ".", "-", "-", "/", "+", "(",
      ")", ":", ":", "\"", "\"", ",", "_", "%", "a", "e", "g", "T", "Z", "x", "é", "{", "}", "[", " ",
      "\"time\":\"2026-11-29T22:00:31.172Z\"", "\"seq\":99616,", "\"id\":\"s-1795989626-1\"", "\"phone\":",
      "48.8566", "203.0.113.7", "2026-11-29T", "\"podcast_duration\":1830}",
    ]
    var generator = SeededGenerator(seed: 1_347)
    var triggered = 0
    for _ in 0..<50_000 {
      var line = ""
      for _ in 0..<Int.random(in: 1...30, using: &generator) {
        line += fragments.randomElement(using: &generator) ?? ""
      }
      var copy = line
      if copy.withUTF8({ PIILineTrigger.mayHoldPIIByteByByte($0) }) { triggered += 1 }
      assertSameAnswer(line)
    }
    XCTAssertGreaterThan(triggered, 5_000)
    XCTAssertLessThan(triggered, 45_000)
  }

  /// Whether ``PIIQuietStretch`` finds the stretch after `text`'s first letter (in a string when
  /// `inString`, as after a key's letter) quiet through its next letter (the line's last byte is
  /// never that letter, so a `0` is added).
  private func isQuiet(_ text: String, inString: Bool = false) -> Bool {
    var line = text + "0"
    return line.withUTF8 { bytes in
      PIIQuietStretch.end(bytes.baseAddress!, from: 1, last: 1, count: bytes.count, inString: inString) != nil
    }
  }

  /// The bench's stretches (a date, a time, a counter, a session id) are read without the byte
  /// pass; a stretch that may hold a trigger is left to it.
  func testTimestampsCountersAndIdsAreQuiet() {
    XCTAssertTrue(isQuiet("e\":\"2026-11-29T", inString: true))
    XCTAssertTrue(isQuiet("T22:00:31.172Z", inString: true))
    XCTAssertTrue(isQuiet("q\":99616,\"t", inString: true))
    XCTAssertTrue(isQuiet("n\":1830}}]},{\"p", inString: true))
    XCTAssertTrue(isQuiet("s-1795989626-1\",\"s", inString: true))
    XCTAssertTrue(isQuiet("n\":\"3.2.0\"},\"x", inString: true))
    for text in [
      "x\":\"0612345678\"y", "x\":\"+33612345678\"y", "x\":\"12345678\"y", "x\":12345678,\"y",
      "x\":48.8566,\"y", "x\":\"1.2.3.4\"y", "x\":\"fe80::1\"y", "x\":\"(212) 555\"y", "x@y", "x\\y",
      "x\":\"1J\"y", "x\":\"2026-11-29\"y", "x\":\"" + String(repeating: "1.", count: 20) + "\"y",
    ] {
      XCTAssertFalse(isQuiet(text, inString: true), text)
    }
  }
}
