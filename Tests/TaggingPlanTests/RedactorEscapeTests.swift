import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// `tagscope redact` reads a string's content with its JSON escapes decoded (`\/`, `\"`, `\uXXXX`):
/// personal data written with escapes is found and replaced whole, with the hash of the decoded
/// value, and the record stays loadable.
final class RedactorEscapeTests: XCTestCase {
  private let idfa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"

  private func redacted(_ line: String, salt: String = "escapes") -> String {
    var redactor = Redactor(salt: salt)
    return redactor.redact(line: line)
  }

  /// The hash `pii:KIND:` is followed by in `line`, if any.
  private func hash(_ kind: PIIKind, in line: String) -> String? {
    line.components(separatedBy: "pii:\(kind.rawValue):").dropFirst().first.map { String($0.prefix(16)) }
  }

  private func parameters(_ line: String) throws -> Properties {
    try RecordLineDecoder.decodeRecord(line).outputs[0].calls[0].parameters
  }

  private func record(_ parameters: String) -> String {
    "{\"seq\":1,\"time\":\"2026-11-21T10:00:04.210Z\",\"kind\":\"event\",\"name\":\"signUp\",\"outputs\":"
      + "[{\"provider\":\"firebase\",\"status\":\"sent\",\"calls\":[{\"method\":\"logEvent\",\"name\":\"sign_up\","
      + "\"parameters\":{\(parameters)}}]}]}"
  }

  func testAPhoneNumberWithAnEscapedSlashIsReplaced() throws {
    let escaped = record(#""contact":"030\/12345678","plan":"premium""#)
    let copy = redacted(escaped)
    XCTAssertFalse(copy.contains("12345678"), copy)
    let contact = try parameters(copy)["contact"]?.stringValue
    XCTAssertEqual(contact?.hasPrefix("pii:phone:"), true, copy)
    // The same value written without the escape has the same hash.
    let plain = redacted(record(#""contact":"030/12345678","plan":"premium""#))
    XCTAssertEqual(hash(.phone, in: copy), hash(.phone, in: plain))
    XCTAssertNotNil(hash(.phone, in: plain))
  }

  func testAnAdvertisingIDInAnEmbeddedJSONStringIsReplaced() throws {
    let copy = redacted(record(#""payload":"{\"idfa\":\"\#(idfa)\"}""#))
    XCTAssertFalse(copy.contains(idfa), copy)
    // The payload is still a string holding JSON, its advertising id replaced.
    let payload = try XCTUnwrap(try parameters(copy)["payload"]?.stringValue)
    let inner = try XCTUnwrap(
      try JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: String], payload)
    XCTAssertEqual(inner["idfa"]?.hasPrefix("pii:adid:"), true, payload)
    XCTAssertEqual(
      hash(.advertisingID, in: copy), hash(.advertisingID, in: redacted(record(#""idfa":"\#(idfa)""#))))
  }

  /// The other detectors read escapes the same way: an `@` written `\u0040`, a `Bearer` credential
  /// with an escaped `/`, an embedded record's email, phone and IP address; non-ASCII escapes
  /// before a match are kept as written.
  func testEveryDetectorReadsEscapedStrings() throws {
    let cases: [(parameters: String, kind: PIIKind, secret: String, kept: String)] = [
      (#""note":"caf\u00e9 jo\u0040example.com""#, .email, "example.com", #"caf\u00e9 pii:email:"#),
      (#""auth":"Bearer abcdef\/0123456789abcdef""#, .token, "0123456789", #""Bearer pii:token:"#),
      (#""payload":"{\"mail\":\"jo@example.com\"}""#, .email, "jo@example.com", #"{\"mail\":\"pii:email:"#),
      (#""payload":"{\"ip\":\"203.0.113.7\",\"n\":1}""#, .ip, "203.0.113.7", #"\",\"n\":1}"#),
      (#""payload":"call\t+33 6 12 34 56 78""#, .phone, "12 34 56", #"call\tpii:phone:"#),
      (#""where":{"lat":"48.8566\u0031","lng":2.35222}"#, .geo, "2.35222", #"{"lat":"pii:geo:"#),
    ]
    for (fields, kind, secret, kept) in cases {
      let line = record(fields)
      let copy = redacted(line)
      XCTAssertNotNil(hash(kind, in: copy), "\(kind) in \(line)")
      XCTAssertFalse(copy.contains(secret), copy)
      XCTAssertTrue(copy.contains(kept), copy)
      XCTAssertNoThrow(try parameters(copy), copy)
    }
  }

  /// Malformed escapes (unknown, cut, a lone surrogate) are read as written and copied unchanged.
  func testMalformedEscapesAreCopiedAsWritten() {
    for value in [#"\x41 \ud800 ok"#, #"\u12"#, #"\udc00\ud800\u"#, #"\"\\\/"#] {
      let line = record("\"note\":\"\(value)\"")
      XCTAssertEqual(redacted(line), line)
    }
    let cut = #"{"note":"jo\u0040example.com \u00"#
    XCTAssertFalse(redacted(cut).contains("example.com"), cut)
  }
}
