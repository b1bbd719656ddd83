import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// `tagscope redact`'s rewriting: personal data replaced by stable salted hashes, every record
/// still loadable, every line without personal data byte for byte the same.
final class RedactorTests: XCTestCase {
  private let email = "jo.smith@example.com"

  /// The demo's session (no personal data) with records carrying some, as recording lines.
  private func recording() throws -> [String] {
    var lines: [UInt8] = []
    RecordLineEncoder.appendLine(RecordingHeader(app: "Podcasts", device: "iPhone 15 (sim)"), to: &lines)
    for record in try DemoPlanTests.demoSession() { RecordLineEncoder.appendLine(record, to: &lines) }
    let time = Date(timeIntervalSince1970: 1_764_000_000)
    let personal: [Properties] = [
      ["email": .string(email), "plan": .string("premium")],
      ["contact": .string("write to \(email) or call +33 6 12 34 56 78"), "seen": .int(3)],
      ["card": .int(4_111_111_111_111_111), "amount": .double(12.99)],
      ["where": .object(["lat": .double(48.85661), "lng": .double(2.35222), "city": .string("Paris")])],
      ["phone": .int(33_612_345_678), "idfa": .string("6D92078A-8246-4BA4-AE5B-76104861E7DC")],
      ["email": .string(email), "ip": .string("203.0.113.7")],
    ]
    for (offset, parameters) in personal.enumerated() {
      RecordLineEncoder.appendLine(
        Record(
          seq: UInt64(1_000 + offset), time: time, kind: .event, name: "signUp",
          outputs: [
            ProviderOutput(
              provider: "firebase", status: .sent,
              calls: [CallDescription(method: "logEvent", name: "sign_up", parameters: parameters)])
          ]), to: &lines)
    }
    return String(decoding: lines, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  func testRedactedCopyLoadsKeepsCleanLinesAndHashesStably() throws {
    let lines = try recording()
    var redactor = Redactor(salt: "test-salt")
    let redacted = lines.map { redactor.redact(line: $0) }
    XCTAssertEqual(redacted.count, lines.count)
    let personal = lines.count - 6
    for index in lines.indices {
      _ = try RecordLineDecoder.decode(redacted[index])
      if index < personal {
        XCTAssertEqual(
          Array(redacted[index].utf8), Array(lines[index].utf8), "line \(index + 1) has no personal data")
      } else {
        XCTAssertNotEqual(redacted[index], lines[index], "line \(index + 1)")
      }
    }
    let text = redacted[personal...].joined(separator: "\n")
    for secret in [
      email, "+33 6 12 34 56 78", "4111111111111111", "48.85661", "2.35222", "33612345678",
      "6D92078A-8246-4BA4-AE5B-76104861E7DC", "203.0.113.7",
    ] {
      XCTAssertFalse(text.contains(secret), "\(secret) is still in the copy")
    }
    for kept in ["premium", "Paris", "12.99", "\"seen\":3", "write to pii:email:", " or call pii:phone:"] {
      XCTAssertTrue(text.contains(kept), "\(kept) is kept")
    }
    // The same address gives the same hash on every line (and inside a longer string).
    let hashes = redacted[personal...].flatMap { line in
      line.components(separatedBy: "pii:email:").dropFirst().map { String($0.prefix(16)) }
    }
    XCTAssertEqual(hashes.count, 3)
    XCTAssertEqual(Set(hashes).count, 1)
    // Numbers became strings; the record is still a record with the same keys.
    let card = try RecordLineDecoder.decodeRecord(redacted[personal + 2])
    XCTAssertEqual(card.outputs[0].calls[0].parameters["card"]?.stringValue?.hasPrefix("pii:card:"), true)
    XCTAssertEqual(card.outputs[0].calls[0].parameters["amount"], .double(12.99))
    let place = try RecordLineDecoder.decodeRecord(redacted[personal + 3])
    guard case .object(let coordinates)? = place.outputs[0].calls[0].parameters["where"] else {
      return XCTFail("where is an object")
    }
    XCTAssertEqual(coordinates.keys, ["lat", "lng", "city"])
    XCTAssertEqual(coordinates["lat"]?.stringValue?.hasPrefix("pii:geo:"), true)
    XCTAssertEqual(redactor.counts[PIIKind.allCases.firstIndex(of: .email)!], 3)
    // Another salt, other hashes.
    var other = Redactor(salt: "another")
    XCTAssertNotEqual(other.redact(line: lines[personal]), redacted[personal])
  }

  /// Malformed lines (cut, unbalanced, not JSON) are copied through, redacted where a string is
  /// found, without a crash.
  func testMalformedLinesAreCopiedWithoutCrashing() {
    var redactor = Redactor(salt: "s")
    for line in [
      "{\"email\":\"jo@example.com", "{\"\":\"jo@example.com\",\"\":1}", "]]]}}}", "not json at all", "\"",
      "{\"a\":\"\\", "-", "",
    ] {
      let copy = redactor.redact(line: line)
      XCTAssertFalse(copy.contains("jo@example.com"), line)
    }
    XCTAssertEqual(redactor.redact(line: "not json at all"), "not json at all")
  }
}
