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

  /// The array forms (compiled for arrays) and the generic forms (any sequence) keep the same
  /// order and the same last value of a repeated key, below and above the linear-search limit.
  func testArrayAndSequenceFormsAgreeOnRepeatedKeys() {
    for count in [3, 40] {
      let pairs: [(String, PropertyValue)] = (0..<count).flatMap { index in
        [
          ("k\(index % (count / 2 + 1))", PropertyValue.int(index)),
          ("z\(index)", .bool(index.isMultiple(of: 2))),
        ]
      }
      let fromArray = Properties(pairs)
      let fromSequence = Properties(pairs.lazy.map { $0 })
      XCTAssertEqual(fromArray.keys, fromSequence.keys)
      XCTAssertEqual(Array(fromArray.map(\.value)), Array(fromSequence.map(\.value)))
      XCTAssertEqual(fromArray["k0"], .int(count / 2 + 1), "the last value of a repeated key")
      var merged: Properties = ["k1": "first"]
      merged.merge(pairs)
      var mergedLazily: Properties = ["k1": "first"]
      mergedLazily.merge(pairs.lazy.map { $0 })
      XCTAssertEqual(merged.keys, mergedLazily.keys)
      XCTAssertEqual(merged.keys.first, "k1", "a key already there keeps its place")
      XCTAssertEqual(Array(merged.map(\.value)), Array(mergedLazily.map(\.value)))
    }
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
