import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TagscopeTimeline

/// Issue 45: the timeline's index keeps its entries in columns (``IndexColumns``, about 21 bytes a
/// record). Every entry must read back exactly as appended, whatever its values: through chunk
/// growth, block edges and every value that does not fit its column.
final class IndexColumnsTests: XCTestCase {
  private static let statuses: [IndexFields.Status] = [.sent, .dropped, .blocked, .failed, .other]

  /// Entries of a recording as appended: lines one after another, times rising, a few names and
  /// sources; one in `rare` with a value at or past its column's edge, or a shape of its own.
  private func entries(_ count: Int, rare: Int, seed: UInt64) -> [IndexEntry] {
    var numbers = SeededGenerator(seed: seed)
    var offset: UInt64 = 100
    var time: Int64 = 1_700_000_000_000
    var entries: [IndexEntry] = []
    for index in 0..<count {
      var length = UInt32(200 + numbers.below(600))
      var entryOffset = offset
      var entryTime = time
      var nameID = UInt32(numbers.below(6))
      var sourceID = UInt16(numbers.below(4))
      var previous = UInt32(numbers.below(8))
      var planViolations = UInt16(numbers.below(3))
      var flags = UInt8(numbers.below(4) == 0 ? 1 : 0)
      var outputs = [(numbers.below(3), IndexFields.Status.sent, false)]
      if numbers.below(rare) == 0 {
        switch numbers.below(9) {
        case 0:
          length =
            [UInt32(UInt16.max) - 1, UInt32(UInt16.max), UInt32(UInt16.max) + 1, UInt32.max][index % 4]
        case 1:
          entryOffset = [offset + (1 << 33), UInt64.max - 5, offset + UInt64(UInt32.max) - 1, 0][index % 4]
        case 2:
          entryTime =
            [Int64.min, Int64.max, -1, time + Int64(Int32.max), time + Int64(Int32.min), time + 1 << 40][
              index % 6]
        case 3: previous = [UInt32(UInt16.max) - 1, UInt32(UInt16.max), UInt32.max, 1 << 20][index % 4]
        case 4: planViolations = [UInt16(UInt8.max) - 1, UInt16(UInt8.max), UInt16.max, 1_000][index % 4]
        case 5: nameID = UInt32(truncatingIfNeeded: numbers.next())
        case 6: sourceID = UInt16(truncatingIfNeeded: numbers.next())
        case 7: flags = UInt8(truncatingIfNeeded: numbers.next())
        default:
          outputs = (0..<numbers.below(32)).map { _ in
            (numbers.below(32), Self.statuses[numbers.below(5)], numbers.below(2) == 0)
          }
        }
      }
      var entry = IndexEntry(
        offset: entryOffset, seq: numbers.next(), time: entryTime, nameID: nameID, length: length,
        kindID: UInt16(numbers.below(3)), sourceID: sourceID, flags: flags)
      for (id, status, disabled) in outputs {
        entry.setOutput(provider: id, status: status, disabled: disabled)
      }
      entry.planViolations = planViolations
      entry.previousInSource = previous
      entries.append(entry)
      offset += UInt64(length) + 1 + (numbers.below(50) == 0 ? 40 : 0)
      time += Int64(numbers.below(20))
    }
    return entries
  }

  func testEveryEntryReadsBackAsAppendedThroughGrowthAndEdges() {
    let count = ChunkedColumn<UInt8>.chunkSize * 2 + 1_000
    for (rare, seed) in [(40, UInt64(1)), (2, 2)] {
      let plain = entries(count, rare: rare, seed: seed)
      var columns = IndexColumns()
      for entry in plain { columns.append(entry) }
      XCTAssertEqual(columns.count, plain.count)
      var mismatches = 0
      for index in plain.indices where columns[index] != plain[index] {
        mismatches += 1
        if mismatches <= 3 { XCTFail("entry \(index): \(columns[index]) ≠ \(plain[index])") }
      }
      XCTAssertEqual(mismatches, 0, "rare \(rare)")
      for index in plain.indices {
        XCTAssertEqual(columns.time(at: index), plain[index].time)
        XCTAssertEqual(columns.sourceID(at: index), plain[index].sourceID)
        XCTAssertEqual(columns.previousInSource(at: index), plain[index].previousInSource)
        XCTAssertEqual(columns.seqLow(at: index), plain[index].seqLow)
        XCTAssertEqual(columns.shape(columns.shapeID(at: index)), plain[index].shape)
        XCTAssertEqual(columns.hasViolations(at: index), Self.hasViolations(plain[index]))
      }
      // Plan violations set later, over and back across the 8-bit column's edge.
      var numbers = SeededGenerator(seed: seed)
      var changed = plain
      for _ in 0..<5_000 {
        let index = numbers.below(count)
        let value = [0, 1, UInt16(UInt8.max) - 1, UInt16(UInt8.max), 300, UInt16.max][numbers.below(6)]
        columns.setPlanViolations(value, at: index)
        changed[index].planViolations = value
      }
      XCTAssertEqual(changed.indices.filter { columns[$0] != changed[$0] }, [], "rare \(rare)")
      XCTAssertEqual(
        changed.indices.filter { columns.hasViolations(at: $0) != Self.hasViolations(changed[$0]) }, [],
        "rare \(rare)")
    }
  }

  private static func hasViolations(_ entry: IndexEntry) -> Bool {
    entry.flags & IndexEntry.ruleViolations != 0 || entry.planViolations > 0
  }

  /// A filter scan judges each shape once and reads a record's plan violations only when the
  /// filter asks: it must pass exactly the records a whole-entry match passes, for every kind of
  /// condition, in a scope long enough for its table of verdicts and in a short one.
  func testAFilterScanPassesWhatAWholeEntryMatchPasses() {
    let plain = entries(10_000, rare: 3, seed: 4)
    var index = TimelineIndex()
    for entry in plain { index.entries.append(entry) }
    // Enough shapes that the 100-record scope below is judged without a table of verdicts.
    XCTAssertGreaterThan(index.entries.shapeCount, 100 * TimelineIndex.verdictTableShapesPerRecord)
    var numbers = SeededGenerator(seed: 5)
    var filters: [TimelineIndex.CompiledFilter] = []
    for round in 0..<120 {
      var filter = TimelineIndex.CompiledFilter()
      if numbers.below(3) == 0 { filter.kindIDs = (0..<3).map { _ in numbers.below(2) == 0 } }
      if numbers.below(3) == 0 { filter.nameIDs = (0..<numbers.below(7)).map { _ in numbers.below(2) == 0 } }
      if numbers.below(3) == 0 { filter.providerBit = numbers.next() & 0xFFFF_FFFF | 1 }
      if round == 7 { filter.providerUnknown = true }
      if numbers.below(3) == 0 { filter.status = [.sent, .dropped, .blocked, .failed][numbers.below(4)] }
      if numbers.below(3) == 0 { filter.sourceIDs = (0..<4).map { _ in numbers.below(3) != 0 } }
      if numbers.below(2) == 0 { filter.violations = numbers.below(2) == 0 }
      if numbers.below(3) == 0 { filter.issues = numbers.below(2) == 0 }
      filters.append(filter)
    }
    for (number, filter) in filters.enumerated() {
      for scope in [0..<plain.count, 2_000..<2_100, 1_000..<1_040, 5..<6, 0..<0] {
        let expected = scope.filter { Self.matches(plain[$0], filter) }
        XCTAssertEqual(
          index.positions(in: scope, passing: filter), expected, "filter \(number), scope \(scope)")
      }
    }
  }

  /// The whole-entry match the scan's verdicts must agree with (what the filter did before).
  private static func matches(_ entry: IndexEntry, _ filter: TimelineIndex.CompiledFilter) -> Bool {
    if let kindIDs = filter.kindIDs, !(Int(entry.kindID) < kindIDs.count && kindIDs[Int(entry.kindID)]) {
      return false
    }
    if let nameIDs = filter.nameIDs, !(Int(entry.nameID) < nameIDs.count && nameIDs[Int(entry.nameID)]) {
      return false
    }
    if filter.providerUnknown { return false }
    let scope = filter.providerBit ?? entry.present
    if filter.providerBit != nil && entry.present & scope == 0 { return false }
    if let status = filter.status {
      let mask: UInt64
      switch status {
      case .sent: mask = entry.sent
      case .dropped: mask = entry.dropped
      case .blocked: mask = entry.blocked | entry.disabled
      default: mask = entry.failed
      }
      if mask & scope == 0 { return false }
    }
    if let sourceIDs = filter.sourceIDs {
      let id = Int(entry.sourceID)
      guard id != 0, id < sourceIDs.count, sourceIDs[id] else { return false }
    }
    if let violations = filter.violations, hasViolations(entry) != violations { return false }
    if let issues = filter.issues, (entry.flags & IndexEntry.issues != 0) != issues { return false }
    return true
  }

  /// Records that share a shape keep it once: the columns cost about 21 bytes a record, not 56.
  func testRecordsOfAFewShapesKeepEachShapeOnce() {
    let plain = entries(10_000, rare: Int.max, seed: 3)
    var columns = IndexColumns()
    for entry in plain { columns.append(entry) }
    let distinct = plain.reduce(into: [IndexShape]()) { shapes, entry in
      if !shapes.contains(entry.shape) { shapes.append(entry.shape) }
    }
    XCTAssertLessThanOrEqual(distinct.count, 6 * 4 * 3 * 2 * 3)
    XCTAssertEqual(columns.shapeCount, distinct.count)
  }
}
