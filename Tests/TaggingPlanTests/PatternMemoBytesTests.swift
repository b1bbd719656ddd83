import XCTest

@testable import TaggingPlan

/// ``PatternMemo`` is bounded in bytes: long values that never repeat stop being remembered once
/// their text reaches the limit (still matched, and matched right), short repeating ones are.
final class PatternMemoBytesTests: XCTestCase {
  func testLongValuesStopBeingRememberedAtTheByteLimit() throws {
    let pattern = try PlanPattern("^[a-z0-9 ]+$")
    var memo = PatternMemo(maximumBytes: 10_000)
    XCTAssertEqual(PatternMemo().maximumBytes, PatternMemo.byteLimit)
    let long = String(repeating: "a", count: 1_000)
    for index in 0..<200 {
      XCTAssertTrue(memo.matches(pattern, long + " \(index)"))
    }
    XCTAssertLessThanOrEqual(memo.bytes, 10_000)
    XCTAssertEqual(memo.count, 9, "as many 1 kB values as 10 kB holds, no more")
    XCTAssertFalse(memo.matches(pattern, long + " X"), "past the limit values are still matched")
    let before = memo.count
    XCTAssertTrue(memo.matches(pattern, long + " 0"), "a remembered value answers from memory")
    XCTAssertEqual(memo.count, before)
  }
}
