/// One matching kind's index (a provider and call name): the calls a later wire call may still
/// carry (or a later call repeat) and the wire calls no call explains yet, oldest first, each also
/// by its parameters' fingerprint (``DeliveryPrintIndex``), so a call looks only through those
/// with its parameters.
///
/// Once its provider has a wire source, the bound is per fingerprint, not per kind: the last
/// `limit` calls (and wire calls) with one fingerprint stay found, however many calls of other
/// parameters wait beside them (an SDK that sends a thousand calls of one name an hour later still
/// finds each). Before, no wire call can come to match them, so the lane keeps the last `limit` of
/// its kind (the book gives it the queued calls again when the first wire call comes). Wire calls
/// whose parameters are not read (no fingerprint) may be any call of the kind: they and the calls
/// they look through are the newest `limit` only.
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

  /// The newest `limit` calls, oldest first: those a wire call without a fingerprint looks through.
  func newestCalls(_ limit: Int) -> ArraySlice<Int32> { calls.suffix(limit) }

  /// The newest `limit` wire calls without a fingerprint, oldest first.
  func newestUnprintedWires(_ limit: Int) -> ArraySlice<Int32> { unprintedWires.suffix(limit) }

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

  /// Lets go of the calls with fingerprint `print` past its last `limit` (a look-up found more).
  mutating func keepLastCalls(_ limit: Int, printed print: Int) { callsByPrint.keepLast(limit, of: print) }

  /// Lets go of the calls with fingerprint `print` that `isGone` says are (by number).
  mutating func removeCalls(printed print: Int, where isGone: (Int32) -> Bool) {
    callsByPrint.remove(print) { [calls] in isGone(calls[Int($0)]) }
  }

  /// Lets go of the wire calls with fingerprint `print` past its last `limit`.
  mutating func keepLastWires(_ limit: Int, printed print: Int) { wiresByPrint.keepLast(limit, of: print) }

  /// Entries in the lane.
  var size: Int { calls.count + wires.count }

  /// Whether the lane doubled since its last pruning (so each entry pays a constant share).
  var needsPruning: Bool { size > 8 && size >= 2 * prunedSize }

  /// Keeps, of each fingerprint, the last `limit` calls `keepCall` keeps and the last `limit` wire
  /// calls `keepWire` keeps (and the last `limit` wire calls without one), indexed again: the
  /// calls by `callPrint`, the wire calls by the fingerprints the index held for them (the book's
  /// wire calls do not keep theirs). A wire call the index had let go of (``keepLastWires``) goes.
  /// Not `perFingerprint`: the last `limit` of each, whatever their fingerprints. `earlier`:
  /// calls let go of before, to look at again with the lane's (numbers are in the order made).
  mutating func prune(
    limit: Int, perFingerprint: Bool = true, earlier: [Int32] = [], keepCall: (Int32) -> Bool,
    keepWire: (Int32) -> Bool, callPrint: (Int32) -> Int
  ) {
    if !earlier.isEmpty { calls = Array(Set(calls).union(earlier)).sorted() }
    // Each wire call's fingerprint, `nil` for one without, absent for one let go of.
    var wirePrints = [Int??](repeating: .none, count: wires.count)
    wiresByPrint.forEachEntry { place, print in wirePrints[Int(place)] = .some(print) }
    var unprinted = unprintedWires[...]
    for place in wires.indices where unprinted.first == wires[place] {
      wirePrints[place] = .some(nil)
      unprinted = unprinted.dropFirst()
    }
    var keptWires: [(Int32, Int?)] = []
    var perWirePrint: [Int?: Int] = [:]
    for place in wires.indices.reversed() {
      guard let print = wirePrints[place], keepWire(wires[place]) else { continue }
      let seen = perWirePrint[perFingerprint ? print : nil, default: 0]
      guard seen < limit else { continue }
      perWirePrint[perFingerprint ? print : nil] = seen + 1
      keptWires.append((wires[place], print))
    }
    keptWires.reverse()
    var keptCalls: [(Int32, Int)] = []
    var perCallPrint: [Int: Int] = [:]
    for number in calls.reversed() where keepCall(number) {
      let print = callPrint(number)
      let seen = perCallPrint[perFingerprint ? print : 0, default: 0]
      guard seen < limit else { continue }
      perCallPrint[perFingerprint ? print : 0] = seen + 1
      keptCalls.append((number, print))
    }
    keptCalls.reverse()
    calls = keptCalls.map(\.0)
    wires = keptWires.map(\.0)
    callsByPrint.removeAll()
    wiresByPrint.removeAll()
    unprintedWires.removeAll(keepingCapacity: true)
    for (place, (_, print)) in keptCalls.enumerated() { callsByPrint.add(Int32(place), print: print) }
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
