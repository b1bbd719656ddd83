import XCTest

@testable import TagscopeLive

/// The delivery lanes' plain table of fingerprints: each fingerprint finds exactly its entries, in
/// the order added, through collisions, growth and a fresh start.
final class DeliveryPrintIndexTests: XCTestCase {
  /// 3,000 entries over 700 fingerprints (some sharing a slot, some near each other, negative
  /// ones), checked against a dictionary of arrays after every growth and after starting again.
  func testEachFingerprintFindsItsEntriesInOrder() {
    var random = SystemRandomNumberGenerator()
    let prints = (0..<700).map { index in
      index < 100 ? index : index < 200 ? -index : Int.random(in: .min ... .max, using: &random)
    }
    var index = DeliveryPrintIndex()
    for round in 0..<2 {
      var numbers: [Int32] = []
      var expected: [Int: [Int32]] = [:]
      for entry in 0..<3_000 {
        let print = prints[(entry * 7 + round) % prints.count]
        let number = Int32(10_000 * round + entry)
        index.add(Int32(numbers.count), print: print)
        numbers.append(number)
        expected[print, default: []].append(number)
      }
      for print in prints {
        let found = index.matches(print, in: numbers)
        XCTAssertEqual(Array(found), expected[print] ?? [], "fingerprint \(print)")
        XCTAssertEqual(found.count, expected[print]?.count ?? 0)
      }
      XCTAssertEqual(Array(index.matches(12_345_678_901, in: numbers)), [])
      index.removeAll()
      XCTAssertEqual(Array(index.matches(prints[0], in: numbers)), [])
    }
  }

  /// A table emptied after a burst of fingerprints keeps its room, and once mostly empty lets go
  /// of it: either way the fingerprints added after find only their own entries, and none of
  /// those before is found.
  func testATableEmptiedAfterABurstForgetsItsFingerprints() {
    var index = DeliveryPrintIndex()
    let burst = (0..<1_000).map { Int32($0) }
    for entry in burst { index.add(entry, print: 1_000_000 + Int(entry)) }
    index.removeAll()
    var numbers: [Int32] = []
    for entry in 0..<12 {
      index.add(Int32(entry), print: entry % 3)
      numbers.append(Int32(500 + entry))
    }
    XCTAssertEqual(Array(index.matches(1, in: numbers)), [501, 504, 507, 510])
    for print in [1_000_000, 1_000_005, 1_000_011, 1_000_999] {
      XCTAssertEqual(Array(index.matches(print, in: numbers)), [], "fingerprint \(print)")
    }
    // Now mostly empty: emptied again, the table lets go of its room.
    index.removeAll()
    for entry in 0..<4 { index.add(Int32(entry), print: 7) }
    XCTAssertEqual(Array(index.matches(7, in: numbers)), [500, 501, 502, 503])
    for print in 0..<3 {
      XCTAssertEqual(Array(index.matches(print, in: numbers)), [], "fingerprint \(print)")
    }
  }

  /// A lane pruned keeps, of each fingerprint, the last calls and wire calls asked for, found again
  /// by their fingerprints (the wire calls' taken from the lane's own index); wire calls without
  /// one are listed apart, the last of them kept alike.
  func testAPrunedLaneFindsWhatItKept() {
    var lane = DeliveryLane()
    for number in Int32(0)..<40 {
      lane.addCall(number, DeliveryLane.CallFacts(print: Int(number % 4), called: 0, user: 0))
      lane.addWire(100 + number, print: number % 5 == 0 ? nil : Int(number % 3))
    }
    XCTAssertEqual(Array(lane.calls(printed: 1)), [1, 5, 9, 13, 17, 21, 25, 29, 33, 37])
    XCTAssertEqual(Array(lane.unprintedWires), [100, 105, 110, 115, 120, 125, 130, 135])
    lane.prune(
      limit: 3, keptCall: { $0 % 2 == 1 ? facts(print: Int($0 % 4)) : nil }, keepWire: { $0 % 2 == 0 })
    XCTAssertEqual(lane.calls, [29, 31, 33, 35, 37, 39])
    XCTAssertEqual(Array(lane.calls(printed: 1)), [29, 33, 37])
    XCTAssertEqual(Array(lane.calls(printed: 0)), [])
    XCTAssertEqual(lane.wires, [110, 118, 120, 122, 124, 126, 128, 130, 132, 134, 136, 138])
    XCTAssertEqual(Array(lane.wires(printed: 1)), [122, 128, 134])
    XCTAssertEqual(Array(lane.wires(printed: 2)), [126, 132, 138])
    XCTAssertEqual(Array(lane.wires(printed: 0)), [118, 124, 136])
    XCTAssertEqual(Array(lane.unprintedWires), [110, 120, 130])
    XCTAssertEqual(Array(lane.newestUnprintedWires(2)), [120, 130])
    XCTAssertEqual(Array(lane.newestCalls(2)), [37, 39])
  }

  /// A fingerprint's oldest entries let go of between prunings are found no more, and the next
  /// pruning drops the wire calls among them (it does not take them for wire calls without one).
  func testEntriesLetGoOfStayGoneAfterPruning() {
    var lane = DeliveryLane()
    for number in Int32(0)..<12 {
      lane.addCall(number, DeliveryLane.CallFacts(print: Int(number % 2), called: 0, user: 0))
      lane.addWire(100 + number, print: number % 4 == 3 ? nil : Int(number % 2))
    }
    lane.keepLastCalls(2, printed: 1)
    lane.keepLastWires(1, printed: 0)
    XCTAssertEqual(Array(lane.calls(printed: 1)), [9, 11])
    XCTAssertEqual(Array(lane.calls(printed: 0)), [0, 2, 4, 6, 8, 10])
    XCTAssertEqual(Array(lane.wires(printed: 0)), [110])
    XCTAssertEqual(Array(lane.wires(printed: 1)), [101, 105, 109])
    lane.prune(limit: 100, keptCall: { facts(print: Int($0 % 2)) }, keepWire: { _ in true })
    XCTAssertEqual(lane.wires, [101, 103, 105, 107, 109, 110, 111])
    XCTAssertEqual(Array(lane.wires(printed: 0)), [110])
    XCTAssertEqual(Array(lane.unprintedWires), [103, 107, 111])
    XCTAssertEqual(Array(lane.calls(printed: 1)), [1, 3, 5, 7, 9, 11], "calls come back while kept")
  }

  /// Entries let go of by a predicate leave their fingerprint's order intact, and one emptied
  /// takes new entries again.
  func testEntriesRemovedByAPredicateLeaveTheRestInOrder() {
    var index = DeliveryPrintIndex()
    let numbers = (0..<20).map { Int32(100 + $0) }
    for entry in Int32(0)..<20 { index.add(entry, print: Int(entry % 2)) }
    index.remove(0) { $0 % 4 == 0 || $0 == 18 }
    XCTAssertEqual(Array(index.matches(0, in: numbers)), [102, 106, 110, 114])
    XCTAssertEqual(Array(index.matches(1, in: numbers)).count, 10)
    index.remove(1) { _ in true }
    XCTAssertEqual(Array(index.matches(1, in: numbers)), [])
    var more = numbers
    more.append(120)
    index.add(20, print: 1)
    XCTAssertEqual(Array(index.matches(1, in: more)), [120])
    index.add(21, print: 0)
    more.append(121)
    XCTAssertEqual(Array(index.matches(0, in: more)), [102, 106, 110, 114, 121])
  }

  /// A call's time and user come back with its number, by fingerprint, before and after pruning
  /// (the twin scan reads them there, not from the book).
  func testACallsTimeAndUserComeBackWithItsNumber() {
    var lane = DeliveryLane()
    for number in Int32(0)..<30 {
      lane.addCall(
        number,
        DeliveryLane.CallFacts(print: Int(number % 3), called: 1_000 * Int64(number), user: number % 4))
    }
    var seen: [String] = []
    lane.forEachCall(printed: 2) { seen.append("\($0)@\($1)/\($2)") }
    XCTAssertEqual(seen, (0..<10).map { "\(3 * $0 + 2)@\(3_000 * $0 + 2_000)/\((3 * $0 + 2) % 4)" })
    lane.prune(
      limit: 2,
      keptCall: {
        $0 % 5 == 0 ? nil : DeliveryLane.CallFacts(print: Int($0 % 3), called: 7 * Int64($0), user: 9)
      },
      keepWire: { _ in true })
    seen = []
    lane.forEachCall(printed: 2) { seen.append("\($0)@\($1)/\($2)") }
    XCTAssertEqual(seen, ["26@182/9", "29@203/9"], "the last two kept, with the facts pruning gave")
    seen = []
    lane.forEachCall(printed: 7) { number, _, _ in seen.append("\(number)") }
    XCTAssertEqual(seen, [])
  }

  /// Pruning's counts by fingerprint: each fingerprint counted up to its limit, through
  /// collisions (fingerprints that share their slot) and a full table's worth of fingerprints.
  func testPrintCountsStopAtTheLimitForEachFingerprint() {
    let prints = (0..<500).map { $0 * 1_024 } + [-1, .min, .max]
    var counts = DeliveryPrintCounts(capacity: prints.count)
    var expected: [Int: Int] = [:]
    for round in 0..<4 {
      for (place, print) in prints.enumerated() where place % 4 >= round {
        let added = counts.add(print, below: 3)
        XCTAssertEqual(added, expected[print, default: 0] < 3, "\(print) in round \(round)")
        if added { expected[print, default: 0] += 1 }
      }
    }
    // Places 0, 1 and 2 mod 4 (126 each) are offered 1, 2 and 3 times; places 3 mod 4 (125) 4 times.
    XCTAssertEqual(expected.values.reduce(0, +), 126 * (1 + 2 + 3) + 125 * 3)
  }

  private func facts(print: Int) -> DeliveryLane.CallFacts {
    DeliveryLane.CallFacts(print: print, called: 0, user: 0)
  }
}
