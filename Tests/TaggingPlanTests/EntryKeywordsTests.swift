import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import XCTest

/// A catalogue entry's own JSON Schema keywords (`anyOf`, `minProperties`, `dependentRequired`…)
/// constrain its parameters as one object, checked by the same checker as a property's.
final class EntryKeywordsTests: XCTestCase {
  static let yaml = """
    plan: Shop
    catalogues:
      segment:
        calls:
          Product Shared:
            method: track
            params:
              share_via: {type: string}
            anyOf:
              - properties: {recipient: {required: true}}
              - properties: {share_url: {required: true}}
            minProperties: 2
            dependentRequired: {share_message: [recipient]}
            not: {properties: {share_via: {const: fax}, recipient: {required: true}}}
        methods:
          identify:
            propertiesAt: traits
            patternProperties:
              "^x_": {type: string}
    """

  private func plan() throws -> Plan { try PlanLoader.load(yaml: Self.yaml, file: "shop.yaml") }

  private func shared(_ seq: UInt64, _ properties: Properties) -> Record {
    record(
      seq, .event, "Product Shared",
      outputs: [
        sent("segment", "Product Shared", properties, method: "track")
      ])
  }

  private func messages(_ records: [Record]) throws -> [String] {
    validate(records, plan: try plan()).0.map { "\($0.seq) \($0.rule.rawValue) \($0.message)" }
  }

  func testEntryLevelKeywordsLoadOntoTheParameters() throws {
    let entry = try XCTUnwrap(try plan().catalogues.first?.calls.first)
    let keywords = try XCTUnwrap(entry.keywords)
    XCTAssertEqual(keywords.anyOf.count, 2)
    XCTAssertEqual(keywords.minProperties, 2)
    XCTAssertEqual(keywords.dependentRequired.map(\.name), ["share_message"])
    XCTAssertNotNil(keywords.not)
    XCTAssertEqual(entry.params.map(\.name), ["share_via"])
    XCTAssertEqual(try plan().catalogues.first?.methods.first?.keywords?.patternProperties.count, 1)
  }

  func testAConformingCallPassesAndEachBrokenKeywordIsFlaggedOnce() throws {
    let found = try messages([
      shared(1, ["share_via": "email", "recipient": "friend-42"]),
      shared(2, ["share_via": "email", "other": 1]),
      shared(3, ["share_url": "https://example.com"]),
      shared(4, ["share_url": "https://example.com", "share_message": "hi"]),
      shared(5, ["share_via": "fax", "recipient": "friend-42"]),
      shared(6, ["share_via": 3, "share_url": "https://example.com"]),
    ])
    XCTAssertEqual(found.count, 5, "\(found)")
    XCTAssertFalse(found.contains { $0.hasPrefix("1 ") })
    XCTAssertTrue(found.contains { $0.hasPrefix("2 invalid-value") && $0.contains("anyOf") }, "\(found)")
    XCTAssertTrue(found.contains { $0.hasPrefix("3 invalid-value") && $0.contains("at least 2") }, "\(found)")
    XCTAssertTrue(found.contains { $0.hasPrefix("4 invalid-value") && $0.contains("recipient") }, "\(found)")
    XCTAssertTrue(found.contains { $0.hasPrefix("5 invalid-value") }, "\(found)")
    XCTAssertTrue(found.contains { $0.hasPrefix("6 wrong-type") && $0.contains("share_via") }, "\(found)")
  }

  func testAMethodEntrysKeywordsApplyToItsOwnPath() throws {
    // As `listen` records an SDK's message (it keeps the raw payload): traits at `propertiesAt`.
    let identify = { (seq: UInt64, traits: Properties) in
      var message = record(
        seq, .identify, "identify",
        outputs: [
          sent("segment", "identify", ["type": "identify", "traits": .object(traits)], method: "identify")
        ])
      message.raw = "{}"
      return message
    }
    let found = try messages([identify(1, ["x_plan": "pro"]), identify(2, ["x_plan": 3])])
    XCTAssertEqual(found.count, 1, "\(found)")
    XCTAssertTrue(found.first?.hasPrefix("2 wrong-type") ?? false, "\(found)")
    XCTAssertTrue(found.first?.contains("parameter traits.x_plan") ?? false, "\(found)")
  }

  func testABadEntryKeywordIsAnErrorWithItsPlace() {
    let yaml = """
      plan: Shop
      catalogues:
        segment:
          calls:
            Product Shared:
              minProperties: many
      """
    XCTAssertThrowsError(try PlanLoader.load(yaml: yaml, file: "shop.yaml")) { error in
      XCTAssertTrue("\(error)".contains("shop.yaml:6"), "\(error)")
      XCTAssertTrue("\(error)".contains("minProperties"), "\(error)")
    }
  }
}
