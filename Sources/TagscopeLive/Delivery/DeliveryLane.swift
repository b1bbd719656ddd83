/// One matching kind's index (a provider and call name): the calls a later wire call may still
/// carry (or a later call repeat) and the wire calls no call explains yet, oldest first, each also
/// by its parameters' fingerprint, so a call looks only through those with its parameters.
///
/// Entries are numbers only (4 bytes each; their fingerprints are the book's, asked for when the
/// lane is pruned), so a wire call no call explains costs the lane little while it waits.
struct DeliveryLane {
  /// The numbers under one fingerprint, most often one, kept without an array then.
  struct Numbers: Sequence {
    private var first: Int32 = -1
    private var rest: [Int32] = []

    /// How many.
    var count: Int { first < 0 ? 0 : 1 + rest.count }

    mutating func append(_ number: Int32) {
      if first < 0 { first = number } else { rest.append(number) }
    }

    func makeIterator() -> Iterator { Iterator(numbers: self) }

    /// The numbers in the order added.
    struct Iterator: IteratorProtocol {
      let numbers: Numbers
      var offset = -1

      mutating func next() -> Int32? {
        defer { offset += 1 }
        if offset < 0 { return numbers.first < 0 ? nil : numbers.first }
        return offset < numbers.rest.count ? numbers.rest[offset] : nil
      }
    }
  }

  /// The calls' and the wire calls' numbers, oldest first.
  private(set) var calls: [Int32] = []
  private(set) var wires: [Int32] = []
  /// The wire calls without a fingerprint: every call of the kind may be theirs.
  private(set) var unprintedWires = Numbers()
  private var callsByPrint: [Int: Numbers] = [:]
  private var wiresByPrint: [Int: Numbers] = [:]
  private var prunedSize = 0

  /// The calls with fingerprint `print`.
  func calls(printed print: Int) -> Numbers { callsByPrint[print] ?? Numbers() }

  /// The wire calls with fingerprint `print` (not those without one).
  func wires(printed print: Int) -> Numbers { wiresByPrint[print] ?? Numbers() }

  mutating func addCall(_ number: Int32, print: Int) {
    calls.append(number)
    callsByPrint[print, default: Numbers()].append(number)
  }

  /// Adds wire call `number` with fingerprint `print` (`nil`: its properties are not mapped).
  mutating func addWire(_ number: Int32, print: Int?) {
    wires.append(number)
    if let print {
      wiresByPrint[print, default: Numbers()].append(number)
    } else {
      unprintedWires.append(number)
    }
  }

  /// Entries in the lane.
  var size: Int { calls.count + wires.count }

  /// Whether the lane doubled since its last pruning (so each entry pays a constant share).
  var needsPruning: Bool { size > 8 && size >= 2 * prunedSize }

  /// Keeps the last `limit` calls `keepCall` keeps and the last `limit` wire calls `keepWire`
  /// keeps, indexed again by `callPrint` and `wirePrint` (`nil`: a wire call without one).
  mutating func prune(
    limit: Int, keepCall: (Int32) -> Bool, keepWire: (Int32) -> Bool, callPrint: (Int32) -> Int,
    wirePrint: (Int32) -> Int?
  ) {
    calls = Array(calls.filter(keepCall).suffix(limit))
    wires = Array(wires.filter(keepWire).suffix(limit))
    callsByPrint.removeAll(keepingCapacity: true)
    wiresByPrint.removeAll(keepingCapacity: true)
    unprintedWires = Numbers()
    for number in calls { callsByPrint[callPrint(number), default: Numbers()].append(number) }
    for number in wires {
      if let print = wirePrint(number) {
        wiresByPrint[print, default: Numbers()].append(number)
      } else {
        unprintedWires.append(number)
      }
    }
    prunedSize = size
  }
}
