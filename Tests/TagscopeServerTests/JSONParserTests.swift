import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// The server's JSON parser, base64 and form decoding: what every SDK payload goes through.
final class JSONParserTests: XCTestCase {
  func testValuesKeepTypesAndOrder() throws {
    let value = try JSONParser.parse(
      #"{"b":1,"a":[true,false,null,-2.5e3,"x"],"c":{"z":"\u00e9\ud83c\udfa7\n\"\\/"},"d":9223372036854775807}"#
    )
    guard case .object(let object) = value else { return XCTFail("not an object") }
    XCTAssertEqual(object.keys, ["b", "a", "c", "d"])
    XCTAssertEqual(object["b"], .int(1))
    XCTAssertEqual(object["a"], [true, false, nil, .double(-2500), "x"])
    XCTAssertEqual(Payload.object(object["c"])["z"], .string("é🎧\n\"\\/"))
    XCTAssertEqual(object["d"], .int(Int.max))
    // An integer past Int keeps its digits (issue 44), a number with a fraction or exponent is a double.
    XCTAssertEqual(
      try JSONParser.parse("18446744073709551616"), PropertyValue.integer(digits: "18446744073709551616"))
    XCTAssertEqual(try JSONParser.parse("1.8446744073709552e19"), .double(18_446_744_073_709_551_616))
  }

  func testDuplicateKeysKeepTheLastValueInTheFirstPlace() throws {
    XCTAssertEqual(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#), ["a": 3, "b": 2])
  }

  func testMalformedInputThrowsWithOffset() {
    for text in [
      "", "{", #"{"a"}"#, "[1,]", "01", "1.", "tru", #""\x""#, "{\"a\":1} x", "\"\u{01}\"", "1e999",
    ] {
      XCTAssertThrowsError(try JSONParser.parse(text), text)
    }
    XCTAssertThrowsError(try JSONParser.parse("[1,2,}")) { error in
      XCTAssertEqual((error as? JSONSyntaxError)?.offset, 5)
    }
  }

  func testDeepNestingIsRefusedNotACrash() {
    let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
    XCTAssertThrowsError(try JSONParser.parse(deep))
    let fine = String(repeating: "[", count: 200) + String(repeating: "]", count: 200)
    XCTAssertNoThrow(try JSONParser.parse(fine))
  }

  func testWriterRoundTrips() throws {
    let value: PropertyValue = ["s": "a\"b\\c\n\u{01}", "n": 1, "d": 2.5, "l": [true, nil], "o": ["k": "v"]]
    XCTAssertEqual(try JSONParser.parse(JSONText.value(value)), value)
  }

  func testBase64AcceptsBothAlphabetsAndMissingPadding() {
    XCTAssertEqual(Base64.decode("eyJhIjoxfQ==").map { String(decoding: $0, as: UTF8.self) }, #"{"a":1}"#)
    XCTAssertEqual(Base64.decode("eyJhIjoxfQ").map { String(decoding: $0, as: UTF8.self) }, #"{"a":1}"#)
    XCTAssertEqual(Base64.decode("-_8").map(Array.init), [0xFB, 0xFF])
    XCTAssertEqual(Base64.decode("+/8=").map(Array.init), [0xFB, 0xFF])
    XCTAssertNil(Base64.decode("ab$c"))
    XCTAssertNil(Base64.decode("a"))
  }

  func testFormDecoding() {
    let pairs = FormDecoding.pairs("data=%7B%22a%22%3A1%7D&verbose=1&flag&name=a+b%zz")
    XCTAssertEqual(pairs.map(\.name), ["data", "verbose", "flag", "name"])
    XCTAssertEqual(pairs.map(\.value), [#"{"a":1}"#, "1", "", "a b%zz"])
  }

  /// The byte-level reader's edges: empty parts, `=` in a value, escapes cut at the end,
  /// multi-byte text, invalid UTF-8 after decoding, and a substring's bytes.
  func testFormDecodingEdges() {
    let pairs = FormDecoding.pairs("&&a==b&%41%4&c%2=é%C3%A9&x=%&y=%FF&=v&")
    XCTAssertEqual(pairs.map(\.name), ["a", "A%4", "c%2", "x", "y", ""])
    XCTAssertEqual(pairs.map(\.value), ["=b", "", "éé", "%", "\u{FFFD}", "v"])
    let text = "skip&k=v+w&tail"
    let middle = text[text.index(text.startIndex, offsetBy: 5)..<text.index(text.endIndex, offsetBy: -5)]
    XCTAssertEqual(FormDecoding.pairs(middle).map(\.value), ["v w"])
    XCTAssertEqual(FormDecoding.decode("100%25+sure"), "100% sure")
    XCTAssertTrue(FormDecoding.pairs("").isEmpty)
  }
}
