import AnalyticsHub
import XCTest

@testable import TaggingPlan

/// `SchemaKeywords.isEmpty` reads its fields one by one: a keyword added without being read there
/// would make a schema holding only it look empty, and an import would drop it silently.
final class SchemaKeywordsEmptyTests: XCTestCase {
  func testIsEmptyReadsEveryStoredKeyword() {
    XCTAssertEqual(
      Mirror(reflecting: SchemaKeywords<Int>()).children.count, SchemaKeywords<Int>.storedKeywordCount,
      "a stored property was added to SchemaKeywords: read it in isEmpty and count it")
  }

  func testAnyOneKeywordSetMakesItNotEmpty() throws {
    XCTAssertTrue(SchemaKeywords<Int>().isEmpty)
    let pattern = try PlanPattern("^a")
    let setters: [(String, (inout SchemaKeywords<Int>) -> Void)] = [
      ("multipleOf", { $0.multipleOf = 2 }), ("exclusiveMinimum", { $0.exclusiveMinimum = .int(1) }),
      ("exclusiveMaximum", { $0.exclusiveMaximum = .int(1) }), ("minItems", { $0.minItems = 1 }),
      ("maxItems", { $0.maxItems = 1 }), ("uniqueItems", { $0.uniqueItems = true }),
      ("contains", { $0.contains = 1 }), ("minContains", { $0.minContains = 1 }),
      ("maxContains", { $0.maxContains = 1 }), ("minProperties", { $0.minProperties = 1 }),
      ("maxProperties", { $0.maxProperties = 1 }),
      ("patternProperties", { $0.patternProperties = [PatternSchema(pattern: pattern, schema: 1)] }),
      ("propertyNames", { $0.propertyNames = 1 }), ("additionalSchema", { $0.additionalSchema = 1 }),
      ("unevaluatedSchema", { $0.unevaluatedSchema = 1 }), ("unevaluatedItems", { $0.unevaluatedItems = 1 }),
      ("dependentRequired", { $0.dependentRequired = [DependentNames(name: "a", required: ["b"])] }),
      ("dependentSchemas", { $0.dependentSchemas = [NamedSchema(name: "a", schema: 1)] }),
      ("allOf", { $0.allOf = [1] }), ("anyOf", { $0.anyOf = [1] }), ("oneOf", { $0.oneOf = [1] }),
      ("not", { $0.not = 1 }), ("ifSchema", { $0.ifSchema = 1 }), ("thenSchema", { $0.thenSchema = 1 }),
      ("elseSchema", { $0.elseSchema = 1 }), ("prefixItems", { $0.prefixItems = [1] }),
      ("enumValues", { $0.enumValues = [.int(1)] }), ("constValue", { $0.constValue = .int(1) }),
    ]
    XCTAssertEqual(setters.count, SchemaKeywords<Int>.storedKeywordCount)
    for (name, set) in setters {
      var keywords = SchemaKeywords<Int>()
      set(&keywords)
      XCTAssertFalse(keywords.isEmpty, name)
      XCTAssertNotEqual(keywords, SchemaKeywords<Int>(), name)
    }
  }
}
