import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// The privacy scan probes each call with no path kept before walking it again with paths: the
/// probe must say "something is here" exactly when the walk finds something, and the coordinate
/// shortcut for numbers must judge as the text of the number does.
final class PrivacyProbeTests: XCTestCase {
  /// Every corpus value, alone, nested in objects and arrays and under telling keys, and values
  /// that are not personal data: the probe agrees with the walk on each.
  func testTheProbeAgreesWithTheWalkOnEveryCorpusValue() {
    let found =
      PIICorpus.emails + PIICorpus.phones + PIICorpus.advertisingIDs + PIICorpus.ipAddresses
      + PIICorpus.cardNumbers + PIICorpus.geolocations + PIICorpus.tokens
    let clean = ["hello", "1.5", "0f8fad5b-d9cb-469f-a165-70867728950e", "v1.2.3", "2024-05-01", "x@"]
    var values: [(Properties, Bool)] = []
    for text in found + clean {
      let expected = found.contains(text)
      values.append((["value": .string(text)], expected))
      values.append((["a": .object(["b": .array([.int(1), .object(["c": .string(text)])])])], expected))
    }
    let underKeys =
      PIICorpus.phonesUnderKeys.flatMap { key, texts in texts.map { (key, $0) } }
      + PIICorpus.advertisingIDsUnderKeys
    for (key, text) in underKeys {
      values.append((["user": .object([key: .string(text)])], true))
    }
    values.append((["phone": .int(612_345_678)], true))
    values.append((["count": .int(612_345_678)], false))
    values.append((["place": .object(["lat": .double(48.85661), "lng": .double(2.35222)])], true))
    values.append((["place": .object(["lat": .double(48.857), "lng": .double(2.352)])], false))
    // One memo for every probe, each value probed twice: the second answer comes from memory.
    var memo = PrivacyMemo()
    for (properties, expected) in values + values {
      var walked: [PIIKind] = []
      PrivacyScan.walk(object: properties, path: "", kinds: .all) { kind, _, _ in walked.append(kind) }
      XCTAssertEqual(!walked.isEmpty, expected, "\(properties)")
      XCTAssertEqual(
        PrivacyScan.holdsAny(properties, kinds: .all, memo: &memo), !walked.isEmpty, "\(properties)")
    }
  }

  /// A text remembered under one key's context is not the answer under another's: the same UUID
  /// is an advertising id under `idfa` and nothing under `id`, the same digits a phone number
  /// under `phone` only, whichever was scanned first; and what is asked for (`kinds`) counts.
  func testTheMemoKeepsATextsAnswerPerKeyContextAndKinds() {
    let uuid = "0F8FAD5B-D9CB-469F-A165-70867728950E"
    var memo = PrivacyMemo()
    for _ in 0..<2 {
      XCTAssertFalse(PrivacyScan.holdsAny(["id": .string(uuid)], kinds: .all, memo: &memo))
      XCTAssertTrue(PrivacyScan.holdsAny(["idfa": .string(uuid)], kinds: .all, memo: &memo))
      XCTAssertFalse(PrivacyScan.holdsAny(["count": .string("0612345678")], kinds: .all, memo: &memo))
      XCTAssertTrue(PrivacyScan.holdsAny(["phone": .string("0612345678")], kinds: .all, memo: &memo))
      XCTAssertFalse(
        PrivacyScan.holdsAny(["idfa": .string(uuid)], kinds: [PIIKinds(.email)], memo: &memo))
    }
    XCTAssertEqual(memo.count, 5)
  }

  /// A record's findings are the same with a memo that saw earlier records as with none, and the
  /// memo holds no more bytes of text than it is given.
  func testFindingsWithAMemoAreTheFindingsWithoutAndTheMemoIsBounded() {
    var memo = PrivacyMemo(maximumBytes: 64 * 8)
    for index in 0..<200 {
      let parameters: Properties = [
        "email": .string("user\(index % 7)@example.com"),
        "phone": .string("+33 6 12 34 56 \(10 + index % 50)"),
        "screen": .string("Checkout step \(index % 3)"), "tags": .array([.string("ip 10.0.0.\(index % 9)")]),
      ]
      let record = Record(
        seq: UInt64(index), time: Date(timeIntervalSince1970: 0), kind: .event, name: "e",
        outputs: [
          ProviderOutput(
            provider: "p", status: .sent,
            calls: [CallDescription(method: "track", name: "e", parameters: parameters)])
        ], raw: "{}")
      XCTAssertEqual(
        PrivacyScan.findings(in: record, memo: &memo), PrivacyScan.findings(in: record), "record \(index)")
      XCTAssertLessThanOrEqual(memo.bytes, 64 * 8)
    }
    XCTAssertGreaterThan(memo.count, 0)
  }

  /// The object walk skips values no detector can match under any key without reading their key:
  /// under every telling key, it finds what the walk of the value itself (which reads the key for
  /// every value) finds, on values either side of each shortcut's limit.
  func testValuesSkippedUnreadAreThoseNothingIsFoundInUnderAnyKey() {
    let keys = ["phone", "mobile", "msisdn", "idfa", "gaid", "lat", "lng", "version", "id", "email"]
    let values: [PropertyValue] = [
      .int(0), .int(1_234_567), .int(9_999_999), .int(-9_999_999), .int(10_000_000), .int(12_345_678),
      .int(-612_345_678), .int(4_111_111_111_111_111), .string("123"), .string("1-2-3"), .string("12 34"),
      .string("+1 23"), .string("a@b.co"), .string("1234"), .string("0612345678"), .string("06 12 34 56 78"),
      .string("::1"), .string("Bearer abcdefghijklmnop"), .string("0F8FAD5B-D9CB-469F-A165-70867728950E"),
      .double(48.857), .double(48.8566), .double(181.12345), .double(-90.0001), .double(1e-05), .bool(true),
      .null,
    ]
    for key in keys {
      for value in values {
        var inObject: [PIIKind] = []
        PrivacyScan.walk(object: [key: value], path: "", kinds: .all) { kind, _, _ in inObject.append(kind) }
        var alone: [PIIKind] = []
        PrivacyScan.walk(value, key: PIIKeyContext(key: key), path: "") { kind, _, _ in alone.append(kind) }
        XCTAssertEqual(inObject.filter { $0 != .geo }, alone, "\(key): \(value)")
        // The value walk takes the same shortcuts: the scanner itself, reading every text and every
        // integer a phone key or a card number's length could make telling, is the reference.
        let context = PIIKeyContext(key: key)
        let scanned: [PIIMatch]
        switch value {
        case .string(let text): scanned = PIIScanner.scan(text, key: context)
        case .int(let number) where context.phone || number.magnitude >= 1_000_000_000_000:
          scanned = PIIScanner.scan(String(number), key: context, kinds: .numbers)
        default: scanned = []
        }
        XCTAssertEqual(
          Set(inObject.filter { $0 != .geo }), Set(scanned.map(\.kind).filter { $0 != .geo }),
          "\(key): \(value)")
      }
    }
  }

  /// A latitude/longitude pair given as numbers is judged as the same pair given as their text:
  /// whole thousandths (3 decimals or fewer) are coarse, 4 decimals or more precise, past the
  /// key's limit never.
  func testCoordinateNumbersAreJudgedAsTheirText() {
    let numbers: [Double] = [
      48.857, 48.8566, 2.35, 2.3522, -0.001, -0.0001, 0, 90, 90.0001, 179.999, 179.9999, 180.0001,
      1e-05, 1.2345e-05, 0.1 + 0.2, 45.123_000_000_000_01, 12.5,
    ]
    for latitude in numbers {
      for longitude in [2.35222, 2.352] {
        func geo(_ lat: PropertyValue, _ lng: PropertyValue) -> Bool {
          var found = false
          PrivacyScan.walk(object: ["lat": lat, "lng": lng], path: "", kinds: [PIIKinds(.geo)]) {
            kind, _, _ in
            if kind == .geo { found = true }
          }
          return found
        }
        XCTAssertEqual(
          geo(.double(latitude), .double(longitude)),
          geo(.string("\(latitude)"), .string("\(longitude)")), "\(latitude), \(longitude)")
      }
    }
  }
}
