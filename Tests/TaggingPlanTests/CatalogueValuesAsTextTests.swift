import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// `valuesAsText`: a catalogue whose SDKs send every value as text (mParticle's mobile SDKs)
/// takes a number's or boolean's canonical text for it, and keeps other text text.
final class CatalogueValuesAsTextTests: XCTestCase {
  static let yaml = """
    plan: Coffee
    catalogues:
      mparticle:
        propertiesAt: data.custom_attributes
        valuesAsText: true
        calls:
          Choose Item:
            params:
              quantity: {type: number, maximum: 10}
              cups: {type: integer}
              milk: {type: boolean}
              item: {type: string, enum: ["1", cortado]}
    """

  private func check(_ seq: UInt64, _ attributes: Properties, yaml: String = yaml) throws -> [PlanViolation] {
    let plan = try PlanLoader.load(yaml: yaml, file: "coffee.yaml")
    let data: Properties = ["event_name": "Choose Item", "custom_attributes": .object(attributes)]
    var made = record(
      seq, .event, "Choose Item",
      outputs: [
        ProviderOutput(
          provider: "mparticle", status: .sent,
          calls: [
            CallDescription(
              method: "logEvent", name: "Choose Item",
              parameters: ["event_type": "custom_event", "data": .object(data)])
          ])
      ])
    made.raw = "{}"
    return validate([made], plan: plan).0
  }

  private func summary(_ violations: [PlanViolation]) -> [String] {
    violations.map { "\($0.rule.rawValue) \($0.message.split(separator: ", plan line")[0])" }
  }

  func testCanonicalTextMeetsNumbersAndBooleansAndTextStaysText() throws {
    let conforming = try check(
      1, ["quantity": "12.5", "cups": "3", "milk": "true", "item": "1"],
      yaml: Self.yaml.replacingOccurrences(of: "maximum: 10", with: "maximum: 20"))
    XCTAssertEqual(summary(conforming), [])
    XCTAssertEqual(
      summary(try check(2, ["quantity": "abc", "cups": "2.5", "milk": "yes", "item": "2"])),
      [
        #"wrong-type Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.quantity is a string ("abc")"#,
        #"wrong-type Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.cups is a number (2.5)"#,
        #"wrong-type Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.milk is a string ("yes")"#,
        #"invalid-value Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.item is "2""#,
      ])
    // The text's value is what the other constraints check.
    XCTAssertEqual(
      summary(try check(3, ["quantity": "12.5"])),
      [
        #"invalid-value Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.quantity is 12.5"#
      ])
  }

  func testWithoutTheFlagTextIsText() throws {
    let yaml = Self.yaml.replacingOccurrences(of: "    valuesAsText: true\n", with: "")
    XCTAssertEqual(
      summary(try check(1, ["quantity": "2"], yaml: yaml)),
      [
        #"wrong-type Choose Item: mparticle logEvent Choose Item parameter data.custom_attributes.quantity is a string ("2")"#
      ])
    let plan = try PlanLoader.load(yaml: yaml, file: "coffee.yaml")
    XCTAssertEqual(plan.catalogues.first?.valuesAsText, false)
    XCTAssertEqual(
      try PlanLoader.load(yaml: Self.yaml, file: "coffee.yaml").catalogues.first?.valuesAsText, true)
  }

  func testOnlyJSONNumberTextIsANumber() throws {
    for text in ["007", "1e3x", "2.", ".5", "+1", "nan", "inf", "0x10", "", " 1", "1 ", "-", "1e", "True"] {
      XCTAssertEqual(
        summary(try check(1, ["quantity": .string(text), "milk": .string(text)])).count, 2,
        "\(text) is not a number's or boolean's canonical text")
    }
    for text in ["0", "-3", "2.5", "1.0E1", "1e-2", "-0.5"] {
      XCTAssertEqual(summary(try check(1, ["quantity": .string(text)])), [], text)
    }
  }

  func testAValuesAsTextThatIsNotABooleanIsRefusedWithItsLine() {
    let yaml = Self.yaml.replacingOccurrences(of: "valuesAsText: true", with: "valuesAsText: sometimes")
    XCTAssertThrowsError(try PlanLoader.load(yaml: yaml, file: "coffee.yaml")) { error in
      XCTAssertTrue(
        "\(error)".contains("valuesAsText of catalogue mparticle must be true or false"), "\(error)")
      XCTAssertTrue("\(error)".contains("5"), "\(error)")
    }
  }
}
