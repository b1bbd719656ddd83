import AnalyticsHub
import XCTest

/// Properties made with `init(extending:)` share their first pairs with the properties they
/// extend, yet every read and every change sees what a flat copy of the same pairs sees, and a
/// change to one never shows in the properties it extends or in another extending them.
final class PropertiesExtendingTests: XCTestCase {
  /// What one change does, to extended and flat properties alike.
  private struct Change: Sendable {
    let name: String
    let apply: @Sendable (inout Properties) -> Void
  }

  private static let base: Properties = Properties(
    (0..<20).map { index in ("context\(index)", PropertyValue.string("value \(index)")) })

  /// Changes of shared pairs, own pairs and absent keys, through every mutating entry point,
  /// the hashed merge (past 12 keys) among them.
  private static let changes: [Change] = [
    Change(name: "assign a shared key") { $0["context3"] = .int(3) },
    Change(name: "assign an own key") { $0["own1"] = .bool(false) },
    Change(name: "assign a new key") { $0["new"] = .double(1.5) },
    Change(name: "remove a shared key") { $0["context0"] = nil },
    Change(name: "remove the last shared key") { $0["context19"] = nil },
    Change(name: "remove an own key") { $0["own0"] = nil },
    Change(name: "remove an absent key") { $0["absent"] = nil },
    Change(name: "merge a shared and a new key") { $0.merge([("context5", .null), ("merged", .int(1))]) },
    Change(name: "merge lazily") {
      $0.merge([("context6", PropertyValue.int(6)), ("lazy", .int(2))].lazy.map { $0 })
    },
    Change(name: "merge many, repeated") {
      $0.merge((0..<30).map { index in ("context\(index % 25)", PropertyValue.int(index)) })
    },
    Change(name: "replace a shared value") { $0.replaceValue(at: 2, with: .string("replaced")) },
    Change(name: "replace an own value") { $0.replaceValue(at: $0.count - 1, with: .string("replaced")) },
    Change(name: "append unchecked") { $0.appendUnchecked("appended", .int(9)) },
    Change(name: "reserve") { $0.reserveCapacity(100) },
    Change(name: "reserve less than shared") { $0.reserveCapacity(3) },
  ]

  /// Extended properties with two pairs of their own, and the same pairs in flat properties.
  private static func pair() -> (extended: Properties, flat: Properties) {
    var extended = Properties(extending: base)
    extended.reserveCapacity(base.count + 2)
    extended.appendUnchecked("own0", .int(0))
    extended.appendUnchecked("own1", .int(1))
    var flat = Properties(base.map { ($0.key, $0.value) })
    flat.appendUnchecked("own0", .int(0))
    flat.appendUnchecked("own1", .int(1))
    return (extended, flat)
  }

  private func assertSame(_ extended: Properties, _ flat: Properties, _ what: String) {
    XCTAssertEqual(extended.keys, flat.keys, what)
    XCTAssertEqual(extended.map(\.value), flat.map(\.value), what)
    XCTAssertEqual(extended.count, flat.count, what)
    XCTAssertEqual(extended, flat, what)
    XCTAssertEqual(extended.hashValue, flat.hashValue, what)
    XCTAssertEqual(extended.description, flat.description, what)
    XCTAssertEqual(extended.firstPositions(), flat.firstPositions(), what)
    for (key, value) in flat { XCTAssertEqual(extended[key], value, "\(what): \(key)") }
    XCTAssertNil(extended["absent"], what)
  }

  func testExtendedPropertiesReadAsTheirPairs() {
    let (extended, flat) = Self.pair()
    assertSame(extended, flat, "unchanged")
    XCTAssertEqual(Array(extended.prefix(20).map(\.key)), Self.base.keys)
    XCTAssertEqual(Properties(extending: [:]).count, 0)
    XCTAssertEqual(Properties(extending: extended).keys, flat.keys, "extending extended properties")
    var nested = Properties(extending: extended)
    nested["own0"] = .int(10)
    nested.appendUnchecked("more", .null)
    XCTAssertEqual(nested.keys, flat.keys + ["more"])
    XCTAssertEqual(nested["own0"], .int(10))
    XCTAssertEqual(extended["own0"], .int(0), "the extended properties keep their value")
    var unrepresentable = Properties(extending: ["x": .double(.nan)])
    unrepresentable.appendUnchecked("y", .int(1))
    XCTAssertEqual(unrepresentable.firstUnrepresentablePath, "x")
  }

  /// Each change alone, and all of them one after another, on extended and flat properties.
  func testEveryChangeOfExtendedPropertiesIsAChangeOfTheirPairs() {
    let other = Properties(extending: Self.base)
    for change in Self.changes {
      var (extended, flat) = Self.pair()
      change.apply(&extended)
      change.apply(&flat)
      assertSame(extended, flat, change.name)
    }
    var (extended, flat) = Self.pair()
    for change in Self.changes {
      change.apply(&extended)
      change.apply(&flat)
      assertSame(extended, flat, "after \(change.name)")
      var again = extended
      again["context7"] = .string("again")
      XCTAssertEqual(extended, flat, "a copy's change stays in the copy (\(change.name))")
    }
    XCTAssertEqual(Self.base.keys, (0..<20).map { "context\($0)" }, "the base is unchanged")
    XCTAssertEqual(Self.base["context3"], .string("value 3"))
    XCTAssertEqual(other.keys, Self.base.keys, "another extension is unchanged")
    XCTAssertEqual(other["context3"], .string("value 3"))
  }

  /// Equal in any order, as flat properties are.
  func testExtendedPropertiesEqualTheirPairsInAnyOrder() {
    let (extended, flat) = Self.pair()
    let reversed = Properties(flat.reversed().map { ($0.key, $0.value) })
    XCTAssertEqual(extended, reversed)
    XCTAssertEqual(extended.hashValue, reversed.hashValue)
    var different = extended
    different["context19"] = .string("other")
    XCTAssertNotEqual(different, reversed)
    XCTAssertNotEqual(extended, Properties(extending: Self.base), "fewer pairs")
  }
}
