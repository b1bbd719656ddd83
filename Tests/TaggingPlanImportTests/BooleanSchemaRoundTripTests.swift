import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanImport
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// JSON Schema's explicit `additionalProperties: true`, `items: true` and `false` schemas go
/// through the written YAML as their authors meant: `true` allows (and evaluates) what the
/// keyword covers, `false` refuses it, and a `true` beside a `$ref` does not open what the
/// referenced schema closes.
final class BooleanSchemaRoundTripTests: XCTestCase {
  static let schema = """
    {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "title": "Song Played",
      "type": "object",
      "$defs": {"closed": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false}},
      "properties": {
        "open": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": true, "unevaluatedProperties": false},
        "closed": {"type": "object", "properties": {"id": {"type": "string"}}, "additionalProperties": false},
        "referenced": {"$ref": "#/$defs/closed", "additionalProperties": true},
        "tags": {"type": "array", "prefixItems": [{"type": "string"}], "items": true, "unevaluatedItems": false},
        "none": {"type": "array", "items": false},
        "never": false
      },
      "additionalProperties": true
    }
    """

  private func violations(_ parameters: Properties) throws -> [String] {
    let imported = try importText(Self.schema, file: "song.json", format: .jsonschema, provider: "amplitude")
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: imported.yaml, file: "song.yaml"))
    let call = CallDescription(method: "track", name: "Song Played", parameters: parameters)
    let record = Record(
      seq: 1, time: Date(timeIntervalSince1970: 1_800_000_000), kind: "event", name: "Song Played",
      outputs: [ProviderOutput(provider: "amplitude", status: .sent, calls: [call])], raw: nil)
    return validator.validate(record).filter { $0.provider == "amplitude" }.map(\.message)
  }

  func testTheWrittenYAMLSaysTrueAndFalse() throws {
    let yaml = try importText(Self.schema, file: "song.json", format: .jsonschema, provider: "amplitude").yaml
    XCTAssert(
      yaml.contains("open:\n            type: object\n            additionalProperties: true\n"), yaml)
    XCTAssert(
      yaml.contains("referenced:\n            type: object\n            additionalProperties: false\n"), yaml)
    XCTAssert(yaml.contains("prefixItems: [{type: string}]\n            items: {}\n"), yaml)
    XCTAssert(yaml.contains("items: {not: {}}"), yaml)
    XCTAssert(yaml.contains("never: {not: {}}"), yaml)
    // The entry itself: `additionalProperties: true` at the top of the schema.
    XCTAssert(yaml.contains("        additionalProperties: true\n"), yaml)
  }

  func testTrueAllowsWhatTheKeywordCovers() throws {
    let found = try violations([
      "open": ["id": "a", "extra": 1], "closed": ["id": "b"], "referenced": ["id": "c"],
      "tags": ["x", 2, true], "none": [], "other": "allowed at the top",
    ])
    XCTAssertEqual(found, [])
  }

  func testFalseRefusesAndTrueBesideARefKeepsItClosed() throws {
    let found = try violations([
      "closed": ["id": "b", "extra": 1], "referenced": ["id": "c", "extra": 2], "tags": [1], "none": [1],
      "never": "x",
    ])
    XCTAssertEqual(found.count, 5, found.joined(separator: "\n"))
    for name in ["closed", "referenced", "tags", "none", "never"] {
      XCTAssert(found.contains { $0.contains(name) }, "\(name) not flagged: \(found)")
    }
  }
}
