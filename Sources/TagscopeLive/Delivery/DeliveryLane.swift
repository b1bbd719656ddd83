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
/// Wire call entries are numbers only (4 bytes each; their fingerprints are the book's, asked for
/// when the lane is pruned), so a wire call no call explains costs the lane little while it waits.
/// A call's entry holds, beside its number, when it was made and its user (12 bytes more): a
/// call's look-up for identical calls (``forEachCall(printed:_:)``) tests those first, in these
/// compact arrays, and reads the book's entry of a twin only when it is within reach.
struct DeliveryLane {
  /// A call's facts the lane keeps beside its number.
  struct CallFacts {
    var print: Int
    /// When it was made, by its device's clock.
    var called: Int64
    /// 0: no user said.
    var user: Int32
  }

  /// The calls' and the wire calls' numbers, oldest first.
  private(set) var calls: [Int32] = []
  /// By place in `calls`: when each was made, and its user.
  private var callTimes: [Int64] = []
  private var callUsers: [Int32] = []
  private(set) var wires: [Int32] = []
  /// The wire calls without a fingerprint: every call of the kind may be theirs.
  private(set) var unprintedWires: [Int32] = []
  private var callsByPrint = DeliveryPrintIndex()
  private var wiresByPrint = DeliveryPrintIndex()
  private var prunedSize = 0

  /// The calls with fingerprint `print`.
  func calls(printed print: Int) -> DeliveryPrintIndex.Matches { callsByPrint.matches(print, in: calls) }

  /// Calls `body` with each call with fingerprint `print`, in the order added: its number, when
  /// it was made and its user (from the lane's arrays, not the book's entry).
  func forEachCall(printed print: Int, _ body: (_ number: Int32, _ called: Int64, _ user: Int32) -> Void) {
    callsByPrint.forEachPlace(of: print) { place in
      body(calls[Int(place)], callTimes[Int(place)], callUsers[Int(place)])
    }
  }

  /// The wire calls with fingerprint `print` (not those without one).
  func wires(printed print: Int) -> DeliveryPrintIndex.Matches { wiresByPrint.matches(print, in: wires) }

  /// The newest `limit` calls, oldest first: those a wire call without a fingerprint looks through.
  func newestCalls(_ limit: Int) -> ArraySlice<Int32> { calls.suffix(limit) }

  /// The newest `limit` wire calls without a fingerprint, oldest first.
  func newestUnprintedWires(_ limit: Int) -> ArraySlice<Int32> { unprintedWires.suffix(limit) }

  /// Adds call `number` with `facts`.
  mutating func addCall(_ number: Int32, _ facts: CallFacts) {
    callsByPrint.add(Int32(calls.count), print: facts.print)
    calls.append(number)
    callTimes.append(facts.called)
    callUsers.append(facts.user)
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

  /// Keeps, of each fingerprint, the last `limit` calls `keptCall` gives facts of (`nil`: let go
  /// of) and the last `limit` wire calls `keepWire` keeps (and the last `limit` wire calls without
  /// one), indexed again: the calls by their facts' fingerprints, the wire calls by the
  /// fingerprints the index held for them (the book's wire calls do not keep theirs). A wire call
  /// the index had let go of (``keepLastWires``) goes. Not `perFingerprint`: the last `limit` of
  /// each, whatever their fingerprints. `earlier`: calls let go of before, to look at again with
  /// the lane's (numbers are in the order made). Each call's facts are asked for once, and the
  /// counts by fingerprint are kept in a table sized once (``DeliveryPrintCounts``).
  mutating func prune(
    limit: Int, perFingerprint: Bool = true, earlier: [Int32] = [], keptCall: (Int32) -> CallFacts?,
    keepWire: (Int32) -> Bool
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
    var perWirePrint = DeliveryPrintCounts(capacity: perFingerprint ? wires.count : 0)
    var (unprintedSeen, allSeen) = (0, 0)
    for place in wires.indices.reversed() {
      guard let print = wirePrints[place], keepWire(wires[place]) else { continue }
      if !perFingerprint {
        guard allSeen < limit else { continue }
        allSeen += 1
      } else if let print {
        guard perWirePrint.add(print, below: limit) else { continue }
      } else {
        guard unprintedSeen < limit else { continue }
        unprintedSeen += 1
      }
      keptWires.append((wires[place], print))
    }
    keptWires.reverse()
    var keptCalls: [(Int32, CallFacts)] = []
    var perCallPrint = DeliveryPrintCounts(capacity: perFingerprint ? calls.count : 0)
    allSeen = 0
    for number in calls.reversed() {
      guard let facts = keptCall(number) else { continue }
      if perFingerprint {
        guard perCallPrint.add(facts.print, below: limit) else { continue }
      } else {
        guard allSeen < limit else { continue }
        allSeen += 1
      }
      keptCalls.append((number, facts))
    }
    keptCalls.reverse()
    (calls, callTimes, callUsers) = ([], [], [])
    calls.reserveCapacity(keptCalls.count)
    callTimes.reserveCapacity(keptCalls.count)
    callUsers.reserveCapacity(keptCalls.count)
    wires = keptWires.map(\.0)
    callsByPrint.removeAll()
    wiresByPrint.removeAll()
    unprintedWires.removeAll(keepingCapacity: true)
    for (number, facts) in keptCalls { addCall(number, facts) }
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
