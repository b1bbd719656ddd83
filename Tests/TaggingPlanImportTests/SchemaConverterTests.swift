import TaggingPlan
import TaggingPlanImport
import XCTest

/// JSON Schema → constraints, through the plain JSON Schema importer.
final class SchemaConverterTests: XCTestCase {
  private func params(_ schema: String) throws -> (params: [NamedConstraints], warnings: [String]) {
    let plan = try importText(schema, file: "s.json", format: .jsonschema, provider: "amplitude")
    return (plan.catalogue.calls.first?.params ?? [], importerWarnings(plan).map(\.description))
  }

  func testRefsWithinTheDocumentAreResolved() throws {
    let (params, warnings) = try params(
      """
      {
        "title": "Checkout",
        "definitions": {"money": {"type": "number", "minimum": 0}},
        "$defs": {"code": {"type": "string", "pattern": "^[A-Z]{3}$"}},
        "properties": {
          "total": {"$ref": "#/definitions/money", "description": "in cents"},
          "currency": {"$ref": "#/$defs/code"},
          "refund": {"$ref": "#/properties/total"}
        }
      }
      """)
    XCTAssertEqual(warnings, [])
    XCTAssertEqual(params.map(\.name), ["total", "currency", "refund"])
    XCTAssertEqual(params[0].constraints.types, [.number])
    XCTAssertEqual(params[0].constraints.minimum, 0)
    XCTAssertEqual(params[0].constraints.description, "in cents")
    XCTAssertEqual(params[1].constraints.pattern, "^[A-Z]{3}$")
    XCTAssertEqual(params[2].constraints.minimum, 0)
  }

  func testARefCycleIsAWarningAndLeavesThePropertyUnconstrained() throws {
    let (params, warnings) = try params(
      """
      {"title": "Tree", "properties": {"node": {"$ref": "#/definitions/node"}},
       "definitions": {"node": {"type": "object", "properties": {"child": {"$ref": "#/definitions/node"}}}}}
      """)
    XCTAssertEqual(
      warnings,
      [
        ##"s.json:2:70: warning: $ref "#/definitions/node" (definitions.node.properties.child.$ref) refers to itself: the property is left unconstrained"##
      ])
    XCTAssertEqual(params[0].constraints.types, [.object])
    XCTAssertEqual(params[0].constraints.properties?.first?.constraints, PropertyConstraints())
  }

  func testRequiredListsMarkPropertiesAndAddTheUndescribedOnes() throws {
    let (params, _) = try params(
      #"{"title": "E", "properties": {"a": {"type": "string"}}, "required": ["a", "b"]}"#)
    XCTAssertEqual(params.map(\.name), ["a", "b"])
    XCTAssertTrue(params[0].constraints.required)
    var requiredOnly = PropertyConstraints()
    requiredOnly.required = true
    XCTAssertEqual(params[1].constraints, requiredOnly)
  }

  func testAnyOfBareTypesFoldIntoATypeList() throws {
    let (params, warnings) = try params(
      #"{"title": "E", "properties": {"a": {"anyOf": [{"type": "string"}, {"type": "null"}]}, "b": {"oneOf": [{"type": "string", "minLength": 2}, {"type": "integer"}]}}}"#
    )
    XCTAssertEqual(params[0].constraints.types, [.string, .null])
    XCTAssertEqual(params[1].constraints.types, [])
    XCTAssertEqual(
      params[1].constraints.keywords?.oneOf.count, 2, "a oneOf of constrained branches is kept whole")
    XCTAssertEqual(warnings, [])
  }

  func testRarerKeywordsConvertAndOthersAreWarnedWithTheirPlace() throws {
    let (params, warnings) = try params(
      """
      {
        "title": "E",
        "properties": {
          "a": {"type": "string", "pattern": "^(?!x)"},
          "b": {"type": "object", "additionalProperties": {"type": "string"}},
          "c": {"type": "array", "items": [{"type": "string"}], "uniqueItems": true},
          "d": {"type": "string", "format": "ipv4"},
          "e": {"type": "number", "exclusiveMinimum": true, "minimum": 1},
          "f": {"type": "string", "x-owner": "growth", "examples": ["x"], "$comment": "ignored"},
          "g": {"type": "string", "format": "color"}
        },
        "patternProperties": {"^x_": {}}
      }
      """)
    XCTAssertEqual(params.map(\.name), ["a", "b", "c", "d", "e", "f", "g"])
    XCTAssertNil(params[0].constraints.pattern)
    XCTAssertEqual(params[1].constraints.keywords?.additionalSchema?.types, [.string])
    XCTAssertEqual(params[2].constraints.keywords?.prefixItems.map(\.types), [[.string]])
    XCTAssertEqual(params[2].constraints.keywords?.uniqueItems, true)
    XCTAssertEqual(params[3].constraints.format, .ipv4)
    XCTAssertNil(params[4].constraints.minimum, "draft-04's exclusiveMinimum: true makes minimum exclusive")
    XCTAssertEqual(params[4].constraints.keywords?.exclusiveMinimum, 1)
    XCTAssertEqual(warnings.count, 3, "\(warnings)")
    XCTAssertTrue(
      warnings[0].hasPrefix(
        "s.json:4:29: warning: pattern (properties.a.pattern) is not checked by Tagscope: "),
      warnings[0])
    XCTAssertEqual(
      Array(warnings.dropFirst()),
      [
        "s.json:9:29: warning: x-owner (properties.f.x-owner) is not checked by Tagscope",
        #"s.json:10:29: warning: format "color" (properties.g.format) is not checked by Tagscope"#,
      ])
  }
}
