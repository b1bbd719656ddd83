/// One matching kind's index (a provider and call name): the calls a later wire call may still
/// carry (or a later call repeat) and the wire calls no call explains yet, oldest first, each also
/// by its parameters' fingerprint, so a call looks only through those with its parameters.
struct DeliveryLane {
  /// One entry: a call's or wire call's number and fingerprint (`printed` false: a wire call
  /// whose properties are not mapped, which matches on the kind alone).
  struct Entry {
    var number: Int32
    var printed: Bool
    var print: Int
  }

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

  private(set) var calls: [Entry] = []
  private(set) var wires: [Entry] = []
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
    calls.append(Entry(number: number, printed: true, print: print))
    callsByPrint[print, default: Numbers()].append(number)
  }

  mutating func addWire(_ number: Int32, print: Int?) {
    wires.append(Entry(number: number, printed: print != nil, print: print ?? 0))
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
  /// keeps.
  mutating func prune(limit: Int, keepCall: (Int32) -> Bool, keepWire: (Int32) -> Bool) {
    calls = Array(calls.filter { keepCall($0.number) }.suffix(limit))
    wires = Array(wires.filter { keepWire($0.number) }.suffix(limit))
    callsByPrint.removeAll(keepingCapacity: true)
    wiresByPrint.removeAll(keepingCapacity: true)
    unprintedWires = Numbers()
    for entry in calls { callsByPrint[entry.print, default: Numbers()].append(entry.number) }
    for entry in wires {
      if entry.printed {
        wiresByPrint[entry.print, default: Numbers()].append(entry.number)
      } else {
        unprintedWires.append(entry.number)
      }
    }
    prunedSize = size
  }
}
