import XCTest

@testable import TagscopeLive

/// The delivery ledger's shelf of entries: whatever is retired and compacted (into the array
/// aside and out of it), each kept entry is found by its number and by its position, changed in
/// place, and listed in number order.
final class DeliveryShelfTests: XCTestCase {
  private struct Entry: DeliveryShelved {
    var position: Int
    var value: Int
    var isRetired = false
    var key: Int { position }
  }

  /// 20,000 entries, three to a position, retired at random but one in eight kept long (so
  /// compaction moves them aside and retires them there later), checked against a dictionary.
  func testKeptEntriesAreFoundByNumberAndPosition() {
    var random = SystemRandomNumberGenerator()
    var shelf = DeliveryShelf<Entry>()
    var model: [Int32: Entry] = [:]
    var pending: [Int32] = []
    for step in 0..<20_000 {
      let number = shelf.append(Entry(position: step / 3, value: step))
      XCTAssertEqual(number, Int32(step))
      model[number] = Entry(position: step / 3, value: step)
      pending.append(number)
      if step % 5 == 0 {
        shelf.update(number) { $0.value += 1 }
        model[number]!.value += 1
      }
      // Any kept entry, in the array or aside, changed in place.
      if step % 7 == 0, let chosen = pending.randomElement(using: &random) {
        XCTAssertEqual(
          shelf.update(chosen) { entry -> Int in
            entry.value += 2
            return entry.value
          }, model[chosen]!.value + 2)
        model[chosen]!.value += 2
      }
      // Any entry, kept or retired: changed only if kept.
      if step % 11 == 0 {
        let any = Int32.random(in: 0...Int32(step), using: &random)
        XCTAssertEqual(
          shelf.updateIfKept(any) { entry -> Int in
            entry.value += 3
            return entry.value
          }, model[any].map { $0.value + 3 }, "number \(any)")
        model[any]?.value += 3
      }
      // Retire most soon, some (one in eight) only much later.
      while pending.count > 40 || (!pending.isEmpty && Int.random(in: 0..<3, using: &random) == 0) {
        let place = Int.random(in: 0..<pending.count, using: &random)
        let chosen = pending.remove(at: place)
        guard chosen % 8 != 0 || step - Int(chosen) > 5_000 else {
          pending.append(chosen)
          if pending.count > 40 { break }
          continue
        }
        shelf.retire(chosen)
        model[chosen] = nil
      }
      if step % 997 == 0 { check(shelf, against: model, count: step + 1) }
    }
    check(shelf, against: model, count: 20_000)
  }

  private func check(_ shelf: DeliveryShelf<Entry>, against model: [Int32: Entry], count: Int) {
    XCTAssertEqual(shelf.keptCount, model.count)
    for number in 0..<Int32(count) {
      XCTAssertEqual(shelf.isKept(number), model[number] != nil, "number \(number)")
      if let entry = model[number] { XCTAssertEqual(shelf[number].value, entry.value) }
    }
    var listed: [Int32] = []
    shelf.forEachKept { number, entry in
      listed.append(number)
      XCTAssertEqual(entry.value, model[number]?.value)
    }
    XCTAssertEqual(listed, model.keys.sorted())
    let byPosition = Dictionary(grouping: model.keys.sorted()) { model[$0]!.position }
    for position in 0...(count / 3) {
      XCTAssertEqual(shelf.numbers(where: position), byPosition[position] ?? [], "position \(position)")
    }
  }
}
