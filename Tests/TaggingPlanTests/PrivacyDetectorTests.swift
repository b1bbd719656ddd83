import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TaggingPlan

/// The privacy detectors against positive and negative corpora, one per kind, on 1 MB strings
/// (work counted, linear), and their false-positive rate on the demo's and real fixtures' values.
final class PrivacyDetectorTests: XCTestCase {
  private func kinds(_ text: String, key: String? = nil) -> [PIIKind] {
    PIIScanner.scan(text, key: key.map { PIIKeyContext(key: $0) } ?? PIIKeyContext()).map(\.kind)
  }

  private func assertFinds(_ kind: PIIKind, _ corpus: [String], key: String? = nil, line: UInt = #line) {
    for text in corpus {
      XCTAssertEqual(kinds(text, key: key), [kind], "\(kind) in \(text) (key \(key ?? "none"))", line: line)
    }
  }

  private func assertClean(_ corpus: [String], key: String? = nil, line: UInt = #line) {
    for text in corpus {
      XCTAssertEqual(kinds(text, key: key), [], "\(text) (key \(key ?? "none"))", line: line)
    }
  }

  func testEmails() {
    assertFinds(.email, PIICorpus.emails)
    XCTAssertEqual(PIIScanner.scan("a@b.co and c@d.fr").count, 2)
    assertClean([
      "icon@2x.png", "pkg@1.2.3", "@handle", "user@localhost", "a@b", "name@.com", "name@-x.com", "me@x.c",
      "..@example.com", "foo@bar..", "@@@@", "swift@6.3",
    ])
  }

  func testPhoneNumbers() {
    assertFinds(.phone, PIICorpus.phones)
    for (key, texts) in PIICorpus.phonesUnderKeys { assertFinds(.phone, texts, key: key) }
    assertClean([
      "1732876800", "1732876800123", "2026-11-21", "2026-11-21T10:00:04.210Z", "10:00:04", "01.02.2024 12:00",
      "12.99", "1,234.56", "€1 234,56", "v1.2.3", "1.2.3.4.5", "0612345678", "2125550143", "123 456 7890",
      "0000012345", "ORD-2026-000123", "1 2 3 4 5 6 7 8 9 10", "0.12345678", "100%", "3.14159265358979",
      "+1", "page 2 of 30", "v2.0612345678", "42 episodes, 1830 s",
    ])
  }

  func testAdvertisingIDs() {
    let idfa = PIICorpus.idfa
    let gaid = PIICorpus.gaid
    for (key, text) in PIICorpus.advertisingIDsUnderKeys { assertFinds(.advertisingID, [text], key: key) }
    assertFinds(.advertisingID, PIICorpus.advertisingIDs)
    // In a JSON string held by a JSON string, the key's quotes are escaped.
    assertFinds(.advertisingID, [#"{\"idfa\":\"\#(idfa)\"}"#, #"{\\\"gaid\\\":\\\"\#(gaid)\\\"}"#])
    // UUIDs that are not advertising ids: message, insert, session, device ids, and ids in text.
    assertClean([idfa, gaid, "messageId=\(gaid)", "insert_id: \(idfa)", "session \(gaid)"])
    for key in [
      "messageId", "insert_id", "session_id", "anonymousId", "payload_id", "uuid", "idfv", "load_id",
    ] {
      assertClean([idfa, gaid], key: key)
    }
    // The all-zero id of limited ad tracking, mixed case, wrong shapes.
    assertClean(
      [
        "00000000-0000-0000-0000-000000000000", "6d92078A-8246-4BA4-AE5B-76104861E7DC",
        "6D92078A-8246-4BA4-AE5B",
      ],
      key: "idfa")
  }

  func testIPAddresses() {
    assertFinds(.ip, PIICorpus.ipAddresses)
    assertClean(["1.2.3"], key: nil)
    assertClean([
      "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "127.0.0.1", "0.0.0.0", "::1", "10:00:04",
      "12:30:45.123",
      "aa:bb:cc:dd:ee:ff", "std::vector", "v10.0.1.2", "a::b", "1::2", "2026-11-21T10:00:04Z",
    ])
    assertClean(["10.0.1.2", "17.4.1.0"], key: "os_version")
  }

  func testCardNumbers() {
    assertFinds(.card, PIICorpus.cardNumbers)
    assertClean([
      "4111111111111112", "1234567812345678", "0000000000000000", "4444444444444444", "1732876800000",
      "9111111111111111", "4111 1111 1111 111", "4111 11111111 1111 x", "41111111111111111111", "12345",
    ])
  }

  func testGeolocation() {
    assertFinds(.geo, PIICorpus.geolocations)
    assertClean([
      "48.85,2.35", "200.12345,10.12345",
      "12.99, 13.49", "3.14159", "48.85661", "v48.85661,2.35222",
    ])
  }

  func testGeolocationPairsOfKeys() {
    var found: [(PIIKind, String)] = []
    let value = PropertyValue.object([
      "place": .object(["lat": .double(48.85661), "lng": .double(2.35222), "city": .string("Paris")]),
      "coarse": .object(["latitude": .double(48.86), "longitude": .double(2.35)]),
      "alone": .object(["lat": .double(48.85661)]),
    ])
    PrivacyScan.walk(value, key: PIIKeyContext(), path: "") { kind, path, _ in found.append((kind, path)) }
    XCTAssertEqual(found.map(\.0), [.geo])
    XCTAssertEqual(found.map(\.1), ["place.lat"])
  }

  func testTokens() {
    assertFinds(.token, PIICorpus.tokens)
    assertClean([
      "eyJ.eyJ.x", "a.b.c", "www.example.com", "Bearer", "bearer short", "Basic", "basic plan",
      "Beautiful day in the neighbourhood of Barcelona", "eyJhbGciOiJIUzI1NiJ9",
    ])
  }

  /// Each detector's work on 1 MB adversarial strings is a bounded multiple of the length: the
  /// steps counted at 1 MB are at most 10× those at 100 KB, plus a little.
  func testDetectorsAreLinearOnMegabyteStrings() {
    let units = [
      "a@", "@a", "a.", "1 ", "0 1", "+1", "1.", "1:", ":a", "a:", "-1.1234,", "eyJa.", "bearer ",
      "00000000-",
      "4111 ", "(1) ", "a", "1", "@", ".",
    ]
    for unit in units {
      func steps(_ length: Int) -> Int {
        var text = Array(String(repeating: unit, count: length / unit.utf8.count).utf8)
        var matches: [PIIMatch] = []
        var steps = 0
        text.withUnsafeMutableBufferPointer {
          PIIScanner.scan(
            UnsafeBufferPointer($0), key: PIIKeyContext(key: "phone"), into: &matches, steps: &steps)
        }
        return steps
      }
      let small = steps(100_000)
      let large = steps(1_000_000)
      XCTAssertLessThanOrEqual(large, small * 10 + 1_000, "unit \(unit)")
      XCTAssertLessThanOrEqual(large, 1_000_000 * 12, "unit \(unit): \(large) steps for 1 MB")
    }
  }

  /// The false-positive rate on values that are not personal data: every string and number a
  /// provider receives in the demo's session, and every value of the real plans', exports' and
  /// payloads' fixtures (JSON Schema's own test suite aside: its format tests are addresses by design).
  func testFalsePositiveRateOnDemoAndFixtureValues() throws {
    var demoValues = 0
    var demoFindings: [String] = []
    for record in try DemoPlanTests.demoSession() {
      for output in record.outputs {
        for call in output.calls {
          demoValues += call.parameters.count
        }
      }
      for finding in PrivacyScan.findings(in: record) {
        demoFindings.append("\(record.name) \(finding.provider) \(finding.path): \(finding.kind.rawValue)")
      }
    }
    print(
      "privacy false positives on the demo: \(demoFindings.count) of \(demoValues) values \(demoFindings)")
    XCTAssertEqual(demoFindings, [])
    // What help plan states (PIIFalsePositiveFigures): update it when this measures otherwise.
    XCTAssertEqual(demoValues, PIIFalsePositiveFigures.demoValues)
    XCTAssertEqual(demoFindings.count, PIIFalsePositiveFigures.demoFalsePositives)

    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    var fixtureValues = 0
    var fixtureFindings: [String] = []
    for folder in ["Fixtures", "TaggingPlanImportTests/Fixtures"] {
      let base = root.appendingPathComponent(folder)
      let files = FileManager.default.enumerator(atPath: base.path)?.compactMap { $0 as? String } ?? []
      for file in files.sorted()
      where file.hasSuffix(".json") && !file.contains("json-schema-test-suite") {
        guard let data = FileManager.default.contents(atPath: base.appendingPathComponent(file).path),
          let json = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        else { continue }
        Self.leaves(json, key: "", path: "") { key, path, value in
          fixtureValues += 1
          for match in PIIScanner.scan(value, key: PIIKeyContext(key: key)) {
            fixtureFindings.append("\(folder)/\(file) \(path): \(match.kind.rawValue)")
          }
        }
      }
    }
    // Real addresses, found rightly: the authors of two mParticle plans and an mParticle batch's
    // email identity (`ui` type 7).
    let truePositives: Set<String> = [
      "Fixtures/mparticle-native/ios-batch.json .ui[1].i: email",
      "TaggingPlanImportTests/Fixtures/mparticle-real/freddy_s_plan-v1.json .created_by: email",
      "TaggingPlanImportTests/Fixtures/mparticle-real/freddy_s_plan-v1.json .last_modified_by: email",
      "TaggingPlanImportTests/Fixtures/mparticle-real/test-duplicate-class-name.json .created_by: email",
      "TaggingPlanImportTests/Fixtures/mparticle-real/test-duplicate-class-name.json .last_modified_by: email",
    ]
    let falsePositives = fixtureFindings.filter { !truePositives.contains($0) }
    let rate = Double(falsePositives.count) / Double(max(fixtureValues, 1))
    print(
      "privacy false positives on fixture values: \(falsePositives.count) of \(fixtureValues) values "
        + "(\(String(format: "%.3f", rate * 100))%), \(fixtureFindings.count - falsePositives.count) true positives\n"
        + falsePositives.joined(separator: "\n"))
    XCTAssertGreaterThan(fixtureValues, 1_000)
    XCTAssertEqual(falsePositives, [])
    XCTAssertEqual(fixtureValues, PIIFalsePositiveFigures.fixtureValues)
    XCTAssertEqual(falsePositives.count, PIIFalsePositiveFigures.fixtureFalsePositives)
    XCTAssertTrue(
      PlanFormatReference.text.contains("0 of 281 demo values and 0 of 1,188 fixture values"),
      "help plan states the figure")
    XCTAssertEqual(Set(fixtureFindings).intersection(truePositives), truePositives)
  }

  /// Each string or number leaf of a JSON value, with its key and path.
  static func leaves(_ json: Any, key: String, path: String, _ visit: (String, String, String) -> Void) {
    switch json {
    case let object as [String: Any]:
      for (name, value) in object { leaves(value, key: name, path: "\(path).\(name)", visit) }
    case let array as [Any]:
      for (index, value) in array.enumerated() { leaves(value, key: key, path: "\(path)[\(index)]", visit) }
    case let text as String: visit(key, path, text)
    case let number as NSNumber: visit(key, path, number.stringValue)
    default: break
    }
  }

  func testEachKindsIndexIsItsPlaceInAllCases() {
    for (place, kind) in PIIKind.allCases.enumerated() {
      XCTAssertEqual(kind.index, place, "\(kind)")
      XCTAssertEqual(PIIKinds(kind).rawValue, 1 << place, "\(kind)")
    }
  }
}
