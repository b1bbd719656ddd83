import AnalyticsHub
import Foundation
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// ``PIILineTrigger``, the redactor's line pre-check: never false on a line holding personal data
/// (every detector's positive corpus, in every place of a record line), false on the demo's clean
/// lines, and the redacted copy byte for byte the same with and without it.
final class PrivacyDetectorLineTriggerTests: XCTestCase {
  private func mayHoldPII(_ line: String) -> Bool {
    var line = line
    return line.withUTF8 { PIILineTrigger.mayHoldPII($0) }
  }

  private func quoted(_ text: String) -> String {
    let data = try? JSONSerialization.data(
      withJSONObject: [text], options: [.fragmentsAllowed, .withoutEscapingSlashes])
    return String(decoding: data ?? Data(), as: UTF8.self).dropFirst().dropLast().description
  }

  /// Record lines holding `text` under `key`: alone, as a string value, as a number when it is
  /// one, in an array, and deep in a call's parameters with clean values around it.
  private func lines(_ text: String, key: String?) -> [String] {
    let key = quoted(key ?? "value")
    let value = quoted(text)
    var lines = [
      text, "{\(key):\(value)}", "{\(key):[\(value),\"x\"]}",
      "{\"seq\":7,\"time\":\"2026-11-21T10:00:04.210Z\",\"outputs\":[{\"provider\":\"firebase\","
        + "\"calls\":[{\"name\":\"sign_up\",\"parameters\":{\"a\":\"2026-11-21\",\(key):\(value),\"n\":12}}]}]}",
    ]
    if text.allSatisfy(\.isNumber) { lines += ["{\(key):\(text)}", "{\(key):[1,\(text),2]}"] }
    // Escaped as JSON writers may: `/` as `\/`, `@`, `+`, `.` and `:` as `\u00XX`, and the whole
    // object embedded in a string (a payload holding JSON).
    let escaped = value.replacingOccurrences(of: "/", with: "\\/")
      .replacingOccurrences(of: "@", with: "\\u0040").replacingOccurrences(of: "+", with: "\\u002B")
      .replacingOccurrences(of: ".", with: "\\u002e").replacingOccurrences(of: ":", with: "\\u003A")
    lines += ["{\(key):\(escaped)}", "{\"payload\":\(quoted("{\(key):\(value)}"))}"]
    return lines
  }

  private func redacted(_ lines: [String], skipsCleanLines: Bool) -> ([String], [Int]) {
    var redactor = Redactor(salt: "line-trigger", skipsCleanLines: skipsCleanLines)
    return (lines.map { redactor.redact(line: $0) }, redactor.counts)
  }

  func testNoLineHoldingAPositiveOfAnyDetectorIsSkipped() {
    let corpus = PIICorpus.all
    XCTAssertEqual(Set(corpus.map(\.kind)), Set(PIIKind.allCases))
    for (kind, key, text) in corpus {
      for line in lines(text, key: key) {
        XCTAssertTrue(mayHoldPII(line), "\(kind) in \(line)")
      }
      let records = Array(lines(text, key: key).dropFirst())
      let (found, _) = redacted(records, skipsCleanLines: false)
      // The detectors read strings with their escapes decoded; in a payload string, only what a
      // detector finds without a key (the key is then text) is found.
      let keyed = key != nil && kind != .advertisingID
      for (line, copy) in zip(records, found) where !(keyed && line.hasPrefix("{\"payload\"")) {
        XCTAssertNotEqual(copy, line, "\(kind) is found in \(line)")
      }
    }
    // Coordinates under latitude and longitude keys, as numbers and as strings.
    for line in [
      "{\"lat\":48.85661,\"lng\":2.35222}", "{\"where\":{\"latitude\":\"-33.8688\",\"longitude\":151.2093}}",
    ] {
      XCTAssertTrue(mayHoldPII(line), line)
      XCTAssertNotEqual(redacted([line], skipsCleanLines: false).0, [line])
    }
  }

  func testTheDemosCleanLinesAreSkipped() throws {
    var lines: [UInt8] = []
    for record in try DemoPlanTests.demoSession() { RecordLineEncoder.appendLine(record, to: &lines) }
    let demo = String(decoding: lines, as: UTF8.self).split(separator: "\n").map(String.init)
    XCTAssertFalse(demo.isEmpty)
    for line in demo { XCTAssertFalse(mayHoldPII(line), line) }
  }

  /// Lines drawn at random from fragments near every trigger (digit runs and separators, dots,
  /// colons, hex, quotes, escapes, keys of every context): the copy is the same with the
  /// pre-check, and it skips no line the detectors change.
  func testTheRedactedCopyIsTheSameWithAndWithoutThePreCheck() throws {
    var lines: [UInt8] = []
    for record in try DemoPlanTests.demoSession() { RecordLineEncoder.appendLine(record, to: &lines) }
    var mixed = String(decoding: lines, as: UTF8.self).split(separator: "\n").map(String.init)
    for (_, key, text) in PIICorpus.all { mixed += self.lines(text, key: key) }
    let fragments = [
      "1", "23", "456", "7890", "12345678", "0612345678", "+", "(", ")", " ", "-", ".", "/", ":", "::", "@",
      "a", "e", "f", "T", "x", "_", "%", ",", "\"", "\\", "\\\"", "{", "}", "[", "]", "eyJ", "Bearer ",
      "basic ",
      "\"phone\":", "\"tel\":", "\"lat\":", "\"lng\":", "\"idfa\":", "\"version\":", "\"v\":", "48.85661",
      "2.35222", ".1234", "6D92078A-8246-4BA4-AE5B-76104861E7DC", "fe80", "203.0.113.7", "4111",
      "\\/", "\\u0040", "\\u002e", "\\t", "\\u12", "\\ud83d\\ude00",
    ]
    var generator = SeededGenerator(seed: 47)
    var changed = 0
    for _ in 0..<20_000 {
      let count = Int.random(in: 1...24, using: &generator)
      var line = "{"
      for _ in 0..<count { line += fragments.randomElement(using: &generator) ?? "" }
      mixed.append(line)
      var redactor = Redactor(salt: "line-trigger", skipsCleanLines: false)
      if redactor.redact(line: line) != line {
        changed += 1
        XCTAssertTrue(mayHoldPII(line), line)
      }
    }
    XCTAssertGreaterThan(changed, 1_000)
    let (with, withCounts) = redacted(mixed, skipsCleanLines: true)
    let (without, withoutCounts) = redacted(mixed, skipsCleanLines: false)
    XCTAssertEqual(withCounts, withoutCounts)
    XCTAssertEqual(with.count, without.count)
    for index in mixed.indices where with[index] != without[index] {
      XCTFail("line \(index + 1): \(mixed[index])")
    }
  }
}
