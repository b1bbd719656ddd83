/// An entry a ``DeliveryShelf`` may let go of.
protocol DeliveryShelved {
  /// Let go of: only counted now.
  var isRetired: Bool { get set }
}

/// The delivery ledger's calls (or wire calls), numbered from 0 in the order added, of which it
/// keeps all but those retired: the newest in one array from the oldest number it still holds
/// there, and the few older ones still kept (calls queued for long) by number aside. Retired
/// entries leave once they are half of the array, so each entry pays a constant share and the
/// entries kept are the shelf's size, however many were added.
struct DeliveryShelf<Entry: DeliveryShelved> {
  private var dense: [Entry] = []
  /// The number of `dense[0]`.
  private var base = 0
  private var aside: [Int32: Entry] = [:]
  private var retiredInDense = 0
  /// The index in `dense` after the last retired entry.
  private var retiredEnd = 0

  /// Entries added so far: the next number.
  var count: Int { base + dense.count }

  /// Entries kept (not retired).
  var keptCount: Int { aside.count + dense.count - retiredInDense }

  /// Whether entry `number` is kept.
  func isKept(_ number: Int32) -> Bool {
    let index = Int(number) - base
    if index >= 0 { return index < dense.count && !dense[index].isRetired }
    return aside[number] != nil
  }

  /// Entry `number`, which must be kept; changed in place (a field set is not a copy of the
  /// whole entry out and back).
  subscript(number: Int32) -> Entry {
    get {
      let index = Int(number) - base
      return index >= 0 ? dense[index] : aside[number]!
    }
    _modify {
      let index = Int(number) - base
      if index >= 0 {
        yield &dense[index]
      } else {
        yield &aside[number]!
      }
    }
  }

  /// Makes room for `extra` more entries at once when they are more than the array holds (a
  /// large upload's batch), so it grows once, not by doubling through the sizes below (each
  /// buffer it grew from held with the next while copied). The room is a power of two, as
  /// doubling from an empty array would reach: an exact size (a session's first batch) would set
  /// every later doubling off it, and the array kept once the session is under way could be
  /// nearly twice as large (1.5 MiB of the ledger bench's heap). A smaller batch grows the array
  /// as its appends do: room made ahead of it would not be let go of when retired entries leave
  /// during the batch.
  mutating func reserve(_ extra: Int) {
    guard extra > dense.capacity else { return }
    let needed = dense.count + extra
    dense.reserveCapacity(needed <= 16 ? 16 : 1 << (Int.bitWidth - (needed - 1).leadingZeroBitCount))
  }

  /// Adds `entry`; returns its number.
  mutating func append(_ entry: Entry) -> Int32 {
    dense.append(entry)
    return Int32(count - 1)
  }

  /// Lets go of entry `number` (kept).
  mutating func retire(_ number: Int32) {
    let index = Int(number) - base
    guard index >= 0 else {
      aside[number] = nil
      return
    }
    dense[index].isRetired = true
    retiredInDense += 1
    retiredEnd = max(retiredEnd, index + 1)
    if retiredInDense >= 256, 2 * retiredInDense >= dense.count { compact() }
  }

  /// The number of the kept entry whose `key` (growing with the number: its session position) is
  /// `value`, if any.
  func number(where key: (Entry) -> Int, is value: Int) -> Int32? {
    var (low, high) = (0, dense.count)
    while low < high {
      let middle = (low + high) / 2
      if key(dense[middle]) < value { low = middle + 1 } else { high = middle }
    }
    if low < dense.count, key(dense[low]) == value { return dense[low].isRetired ? nil : Int32(base + low) }
    return aside.first { key($0.value) == value }?.key
  }

  /// Calls `body` with each kept entry's number and entry, in number order.
  func forEachKept(_ body: (Int32, Entry) -> Void) {
    for number in aside.keys.sorted() { body(number, aside[number]!) }
    for index in dense.indices where !dense[index].isRetired { body(Int32(base + index), dense[index]) }
  }

  /// Drops the array's entries up to its last retired one: the kept ones among them go aside.
  private mutating func compact() {
    for index in 0..<retiredEnd where !dense[index].isRetired { aside[Int32(base + index)] = dense[index] }
    dense.removeFirst(retiredEnd)
    base += retiredEnd
    retiredInDense = 0
    retiredEnd = 0
  }
}
