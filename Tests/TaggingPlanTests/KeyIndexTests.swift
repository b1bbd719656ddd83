import TaggingPlan
import XCTest

/// The index of a diff's profile and a drafted plan: ids in the order added, every key found
/// again through the table's growth, absent keys not found.
final class KeyIndexTests: XCTestCase {
  func testKeysKeepTheirIdsThroughGrowth() {
    var index = KeyIndex<String>()
    XCTAssertNil(index["absent"])
    for number in 0..<5_000 {
      XCTAssertEqual(index.insert("key \(number)").id, Int32(number))
    }
    XCTAssertEqual(index.count, 5_000)
    for number in stride(from: 0, to: 5_000, by: 7) {
      XCTAssertEqual(index["key \(number)"], Int32(number))
      XCTAssertEqual(index.insert("key \(number)").id, Int32(number))
      XCTAssertFalse(index.insert("key \(number)").inserted)
    }
    XCTAssertNil(index["key 5000"])
    XCTAssertEqual(index.keys.count, 5_000)
    XCTAssertEqual(index.keys[4_321], "key 4321")
  }
}
