/// One matching kind's index (a provider and call name): the calls a later wire call may still
/// carry (or a later call repeat) and the wire calls no call explains yet, oldest first, each also
/// by its parameters' fingerprint (``DeliveryPrintIndex``), so a call looks only through those
/// with its parameters.
///
/// Entries are numbers only (4 bytes each; their fingerprints are the book's, asked for when the
/// lane is pruned), so a wire call no call explains costs the lane little while it waits.
struct DeliveryLane {
  /// The calls' and the wire calls' numbers, oldest first.
  private(set) var calls: [Int32] = []
  private(set) var wires: [Int32] = []
  /// The wire calls without a fingerprint: every call of the kind may be theirs.
  private(set) var unprintedWires: [Int32] = []
  private var callsByPrint = DeliveryPrintIndex()
  private var wiresByPrint = DeliveryPrintIndex()
  private var prunedSize = 0

  /// The calls with fingerprint `print`.
  func calls(printed print: Int) -> DeliveryPrintIndex.Matches { callsByPrint.matches(print, in: calls) }

  /// The wire calls with fingerprint `print` (not those without one).
  func wires(printed print: Int) -> DeliveryPrintIndex.Matches { wiresByPrint.matches(print, in: wires) }

  mutating func addCall(_ number: Int32, print: Int) {
    callsByPrint.add(Int32(calls.count), print: print)
    calls.append(number)
  }

  /// Adds wire call `number` with fingerprint `print` (`nil`: its properties are not mapped).
  mutating func addWire(_ number: Int32, print: Int?) {
    if let print {
      wiresByPrint.add(Int32(wires.count), print: print)
    } else {
      unprintedWires.append(number)
    }
    wires.append(number)
  }

  /// Entries in the lane.
  var size: Int { calls.count + wires.count }

  /// Whether the lane doubled since its last pruning (so each entry pays a constant share).
  var needsPruning: Bool { size > 8 && size >= 2 * prunedSize }

  /// Keeps the last `limit` calls `keepCall` keeps and the last `limit` wire calls `keepWire`
  /// keeps, indexed again: the calls by `callPrint`, the wire calls by the fingerprints the index
  /// held for them (the book's wire calls do not keep theirs).
  mutating func prune(
    limit: Int, keepCall: (Int32) -> Bool, keepWire: (Int32) -> Bool, callPrint: (Int32) -> Int
  ) {
    var wirePrints = [Int?](repeating: nil, count: wires.count)
    wiresByPrint.forEachEntry { place, print in wirePrints[Int(place)] = print }
    let keptWires = wires.indices.filter { keepWire(wires[$0]) }.suffix(limit).map {
      (wires[$0], wirePrints[$0])
    }
    calls = Array(calls.filter(keepCall).suffix(limit))
    wires = keptWires.map(\.0)
    callsByPrint.removeAll()
    wiresByPrint.removeAll()
    unprintedWires.removeAll(keepingCapacity: true)
    for (place, number) in calls.enumerated() { callsByPrint.add(Int32(place), print: callPrint(number)) }
    for (place, (number, print)) in keptWires.enumerated() {
      if let print {
        wiresByPrint.add(Int32(place), print: print)
      } else {
        unprintedWires.append(number)
      }
    }
    prunedSize = size
  }
}
