import XCTest

@testable import TagscopeLive

/// A wire call's entry keeps its position, answer status and flags in one word: each is read
/// back as set, whatever the others hold, and the entry stays 40 bytes (no fingerprint: the
/// lane's index keeps it).
final class DeliveryWireEntryTests: XCTestCase {
  func testFieldsSharingAWordAreIndependent() {
    let positions = [0, 1, 65_535, 1 << 40, (1 << 44) - 1]
    for position in positions {
      for printed in [false, true] {
        var wire = DeliveryBook.Wire(
          position: position, time: -5, label: 3, source: 4, user: 5, printed: printed)
        XCTAssertEqual(wire.position, position)
        XCTAssertEqual(wire.printed, printed)
        XCTAssertEqual(wire.status, 0)
        XCTAssertNil(wire.answer)
        wire.status = 503
        wire.ambiguous = true
        XCTAssertEqual(wire.status, 503)
        XCTAssertTrue(wire.ambiguous)
        XCTAssertFalse(wire.isRetired)
        wire.isRetired = true
        wire.ambiguous = false
        wire.status = 200
        XCTAssertEqual(
          [wire.position, Int(wire.status)], [position, 200], "position \(position) printed \(printed)")
        XCTAssertEqual([wire.printed, wire.ambiguous, wire.isRetired], [printed, false, true])
        XCTAssertEqual([wire.time, Int64(wire.label), Int64(wire.user)], [-5, 3, 5])
      }
    }
  }

  func testAStatusOutsideSixteenBitsIsClamped() {
    var wire = DeliveryBook.Wire(position: 7, time: 0, label: 0, source: 0, user: 0, printed: true)
    wire.status = 70_000
    XCTAssertEqual(wire.status, 65_535)
    XCTAssertEqual(wire.position, 7)
    XCTAssertTrue(wire.printed)
  }

  func testAnEntryIsFortyBytes() {
    XCTAssertEqual(MemoryLayout<DeliveryBook.Wire>.stride, 40)
  }
}
