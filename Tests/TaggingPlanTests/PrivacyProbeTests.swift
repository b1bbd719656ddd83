import AnalyticsHub
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
    for (properties, expected) in values {
      var walked: [PIIKind] = []
      PrivacyScan.walk(object: properties, path: "", kinds: .all) { kind, _, _ in walked.append(kind) }
      XCTAssertEqual(!walked.isEmpty, expected, "\(properties)")
      XCTAssertEqual(PrivacyScan.holdsAny(properties, kinds: .all), !walked.isEmpty, "\(properties)")
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
