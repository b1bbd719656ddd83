import TaggingPlan
import TaggingPlanImport
import XCTest

final class DocumentReaderTests: XCTestCase {
  func testJSONWithEscapedSlashesAndTabsParsesWithPositions() throws {
    let text = "{\n\t\"url\":\t\"https:\\/\\/example.com\\/a\",\n\t\"n\": [1,\t2.5, true, null]\n}\n"
    let root = try DocumentReader.parse(text, file: "a.json")
    XCTAssertEqual(root["url"]?.string, "https://example.com/a")
    XCTAssertEqual(root["n"]?.elements?.map(\.value), [.number(1), .number(2.5), .bool(true), .null])
    XCTAssertEqual(root.member("url")?.keyLocation, SourceLocation(line: 2, column: 2))
    XCTAssertEqual(root["n"]?.location, SourceLocation(line: 3, column: 7))
  }

  func testQuotedScalarsStayStrings() throws {
    let root = try DocumentReader.parse(#"{"a": "true", "b": "12", "c": "null", "d": 12}"#, file: "a.json")
    XCTAssertEqual(root["a"]?.value, .string("true"))
    XCTAssertEqual(root["b"]?.value, .string("12"))
    XCTAssertEqual(root["c"]?.value, .string("null"))
    XCTAssertEqual(root["d"]?.value, .number(12))
  }

  func testJSONTheYAMLParserRefusesFallsBackToTheJSONParser() throws {
    // An escaped surrogate pair is valid JSON that YAML's parser rejects.
    let text = "{\n  \"emoji\": \"\\ud83c\\udfa7 podcasts\",\n  \"next\": 1\n}"
    let root = try DocumentReader.parse(text, file: "a.json")
    XCTAssertEqual(root["emoji"]?.string, "\u{1F3A7} podcasts")
    XCTAssertEqual(root.member("next")?.keyLocation, SourceLocation(line: 3, column: 3))
    XCTAssertEqual(root["next"]?.location, SourceLocation(line: 3, column: 11))
  }

  func testInvalidJSONNamesFileLineAndColumn() {
    XCTAssertThrowsError(try DocumentReader.read(path: fixture("invalid.json"))) { error in
      let text = (error as? ImportError)?.description.replacingOccurrences(
        of: fixturesDirectory + "/", with: "")
      XCTAssertEqual(
        text, #"invalid.json:5:34: error: invalid JSON: unexpected character '"', ',' or '}' expected"#)
    }
  }

  func testARepeatedKeyIsAWarningWithItsPlaceAndItsLastValueIsKept() throws {
    let text = "{\"a\": 1,\n \"b\": [{\"c\": 1, \"c\": 2}],\n \"a\": 3}"
    let document = try DocumentReader.document(text, file: "d.json")
    XCTAssertEqual(document.root["a"]?.number, 3)
    XCTAssertEqual(document.root["b"]?.elements?.first?["c"]?.number, 2)
    XCTAssertEqual(document.root.members?.map(\.key), ["a", "b"])
    XCTAssertEqual(
      document.readWarnings.map(\.description),
      [
        #"d.json:2:17: warning: the key "c" is repeated (b[0].c), first at 2:9: this last value is kept"#,
        #"d.json:3:2: warning: the key "a" is repeated (a), first at 1:2: this last value is kept"#,
      ])
  }

  func testARepeatedYAMLKeyIsStillAnError() {
    XCTAssertThrowsError(try DocumentReader.parse("a: 1\na: 2\n", file: "d.yaml")) { error in
      XCTAssertTrue((error as? ImportError)?.message.contains("duplicate key") ?? false, "\(error)")
    }
  }

  func testInvalidYAMLNamesItsLine() {
    XCTAssertThrowsError(try DocumentReader.parse("kind: tp\nspec:\n  rules: [a, b\n", file: "tp.yaml")) {
      error in
      let importError = error as? ImportError
      XCTAssertEqual(importError?.file, "tp.yaml")
      XCTAssertTrue(importError?.message.hasPrefix("invalid YAML") ?? false, "\(error)")
      XCTAssertGreaterThanOrEqual(importError?.location.line ?? 0, 3)
    }
  }

  func testDeepJSONIsRefusedAtTheFirstLevelTooMany() {
    let text = String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    XCTAssertThrowsError(try DocumentReader.parse(text, file: "deep.json")) { error in
      XCTAssertEqual((error as? ImportError)?.location, SourceLocation(line: 1, column: 513))
    }
  }

  func testTheJSONParserReportsItsErrorsWithPositions() {
    XCTAssertThrowsError(
      try DocumentReader.parse("{\"a\": \"\\ud83c\\udfa7\",\n \"b\": tru}", file: "b.json")
    ) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "b.json:2:7: error: invalid JSON: invalid literal, expected 'true'")
    }
  }

  func testColumnsCountCharactersNotBytes() throws {
    let text = "\u{FEFF}{\"é\": [1, \"ü€😀\", 3],\n \"naïve\": {\"x\": \"🎧\", \"y\": null}}"
    let root = try DocumentReader.parse(text, file: "a.json")
    XCTAssertEqual(root["é"]?.elements?.map(\.location.column), [9, 12, 19])
    XCTAssertEqual(root.member("naïve")?.keyLocation, SourceLocation(line: 2, column: 2))
    XCTAssertEqual(root["naïve"]?.member("y")?.keyLocation, SourceLocation(line: 2, column: 22))
  }

  func testJSONWithYAMLLibertiesStillReadsAsYAML() throws {
    let root = try DocumentReader.parse("{\"a\": [1, 2, ], # a comment\n \"b\": x}", file: "a.json")
    XCTAssertEqual(root["a"]?.elements?.map(\.value), [.number(1), .number(2)])
    XCTAssertEqual(root["b"]?.value, .string("x"))
    XCTAssertEqual(root.member("b")?.keyLocation, SourceLocation(line: 2, column: 2))
  }

  func testDeepYAMLIsRefused() {
    let deep = "a: " + String(repeating: "[", count: 600) + String(repeating: "]", count: 600)
    XCTAssertThrowsError(try DocumentReader.parse(deep, file: "deep.yaml")) { error in
      XCTAssertEqual(
        (error as? ImportError)?.description,
        "deep.yaml:1:516: error: the document nests deeper than 512 levels")
    }
    let deeper = "a: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000)
    XCTAssertThrowsError(try DocumentReader.parse(deeper, file: "deep.yaml"))
  }
}
