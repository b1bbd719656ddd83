import TaggingPlan
import TagscopeFuzzing
import XCTest

@testable import TaggingPlanReports

/// The line cache's index answers what a dictionary of the same keys answers, and stays bounded
/// when keys crowd one part of it.
final class LineKeyTableTests: XCTestCase {
  func testItAnswersWhatADictionaryOfTheSameKeysAnswers() {
    var generator = SeededGenerator(seed: 47)
    var table = LineKeyTable()
    var reference: [LineKey: Int] = [:]
    // Random keys, keys sharing their low half and keys sharing their high half, past a few
    // doublings of the table.
    var keys: [LineKey] = []
    for index in 0..<20_000 {
      let random = LineKey(low: generator.next(), high: generator.next())
      switch index % 3 {
      case 0: keys.append(random)
      case 1: keys.append(LineKey(low: 0x1234, high: random.high))
      default: keys.append(LineKey(low: random.low, high: 0x5678))
      }
    }
    for (position, key) in keys.enumerated() where reference[key] == nil {
      XCTAssertNil(table[key])
      if table.insert(key, position: position) { reference[key] = position }
    }
    XCTAssertEqual(table.count, reference.count)
    XCTAssertGreaterThan(reference.count, 19_000)
    for key in keys { XCTAssertEqual(table[key], reference[key]) }
    for _ in 0..<1_000 {
      XCTAssertNil(table[LineKey(low: generator.next(), high: generator.next())])
    }
    table.removeAll()
    XCTAssertEqual(table.count, 0)
    for key in keys.prefix(100) { XCTAssertNil(table[key]) }
    XCTAssertTrue(table.insert(keys[0], position: 7))
    XCTAssertEqual(table[keys[0]], 7)
  }

  func testKeysOfOneSlotAreRefusedPastTheProbeLimit() {
    // Keys whose probes all start at the first key's slot, found by trying keys in turn.
    var table = LineKeyTable()
    XCTAssertTrue(table.insert(LineKey(low: 1, high: 1), position: 0))
    var crowd: [LineKey] = []
    var candidate: UInt64 = 2
    let mask = LineKeyTable.initialSlots - 1
    let target = LineKeyTable.start(LineKey(low: 1, high: 1), mask: mask)
    while crowd.count < 2 * LineKeyTable.probeLimit {
      let key = LineKey(low: candidate, high: 1)
      if LineKeyTable.start(key, mask: mask) == target { crowd.append(key) }
      candidate += 1
    }
    var refused = 0
    for (position, key) in crowd.enumerated() where !table.insert(key, position: position + 1) {
      refused += 1
      XCTAssertNil(table[key])
    }
    XCTAssertEqual(refused, crowd.count + 1 - LineKeyTable.probeLimit)
    XCTAssertEqual(table.count, LineKeyTable.probeLimit)
    XCTAssertEqual(table[LineKey(low: 1, high: 1)], 0)
  }
}
