import AnalyticsHub
import Foundation
import XCTest

final class PropertiesTests: XCTestCase {
  func testKeepsInsertionOrderAndReplacesInPlace() {
    var properties: Properties = ["b": 1, "a": "x"]
    properties["b"] = 2
    properties["c"] = true
    XCTAssertEqual(properties.keys, ["b", "a", "c"])
    XCTAssertEqual(properties["b"], 2)
    properties["a"] = nil
    XCTAssertEqual(properties.keys, ["b", "c"])
    XCTAssertEqual(properties.merging(["c": false, "d": nil]).keys, ["b", "c", "d"])
  }

  func testEqualityIgnoresOrderWhichDisplayAndEncodingKeep() {
    let ab: Properties = ["a": 1, "b": 2]
    let ba: Properties = ["b": 2, "a": 1]
    XCTAssertEqual(ab, ba)
    XCTAssertEqual(ab.hashValue, ba.hashValue)
    XCTAssertEqual(Set([ab, ba]).count, 1)
    XCTAssertEqual(ab.keys, ["a", "b"], "order is kept")
    XCTAssertEqual(ab.description, "[a: 1, b: 2]")
    XCTAssertEqual(ba.description, "[b: 2, a: 1]")
    XCTAssertNotEqual(ab, ["a": 1, "b": 3])
    XCTAssertNotEqual(ab, ["a": 1, "c": 2])
    XCTAssertNotEqual(ab, ["a": 1])
    XCTAssertEqual(
      PropertyValue.object(["x": .object(ab)]), .object(["x": .object(ba)]), "nested objects too")
    // Past the linear search's limit.
    let many = Properties((0..<40).map { ("k\($0)", PropertyValue.int($0)) })
    let reversed = Properties((0..<40).reversed().map { ("k\($0)", PropertyValue.int($0)) })
    XCTAssertEqual(many, reversed)
    XCTAssertEqual(many.hashValue, reversed.hashValue)
    var changed = reversed
    changed["k7"] = 8
    XCTAssertNotEqual(many, changed)
  }

  func testValueAccessorsAndTypeNames() {
    XCTAssertEqual(PropertyValue.int(3).doubleValue, 3)
    XCTAssertEqual(PropertyValue.string("x").typeName, "string")
    XCTAssertEqual(PropertyValue.date(Date()).typeName, "string")
    XCTAssertEqual(PropertyValue.array([]).typeName, "array")
    XCTAssertEqual([1, 2].propertyValue, [1, 2])
    XCTAssertEqual(Optional<String>.none.propertyValue, .null)
  }

  func testDatesAreShownAsISO8601WithMilliseconds() {
    XCTAssertEqual(
      PropertyValue.text(of: Date(timeIntervalSince1970: 1_795_255_204.21)), "2026-11-21T10:00:04.210Z")
    XCTAssertEqual(PropertyValue.date(Date(timeIntervalSince1970: 0)).displayText, "1970-01-01T00:00:00.000Z")
  }
}
