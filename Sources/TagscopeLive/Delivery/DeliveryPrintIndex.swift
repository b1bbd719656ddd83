/// A lane's entries by their parameters' fingerprint (``DeliveryLane``): a plain table, open
/// addressing over the fingerprints, each slot holding the first and last of its entries, and each
/// entry the one after it with the same fingerprint. Entries are places in the lane's array of
/// numbers, added in order; no hashing of its own (a fingerprint is already mixed) and no box per
/// fingerprint, where a dictionary of arrays hashed each key again and held one for each.
struct DeliveryPrintIndex {
  private struct Slot {
    var print: Int
    /// The first and last entry with `print`; `first` -1: an empty slot.
    var first: Int32 = -1
    var last: Int32 = -1
  }

  /// A power of two, or empty before the first entry.
  private var slots: [Slot] = []
  /// By entry: the next entry with its fingerprint (-1: none; also for a place never added).
  private var following: [Int32] = []
  private var used = 0

  /// The entries with fingerprint `print`, as numbers of `numbers` (the lane's array the entries
  /// are places in), in the order added.
  func matches(_ print: Int, in numbers: [Int32]) -> Matches {
    guard let slot = find(print), slots[slot].first >= 0 else {
      return Matches(numbers: numbers, following: following, first: -1)
    }
    return Matches(numbers: numbers, following: following, first: slots[slot].first)
  }

  /// Adds entry `entry` (a place after every place added so far) with fingerprint `print`.
  mutating func add(_ entry: Int32, print: Int) {
    while following.count <= Int(entry) { following.append(-1) }
    // At most half full: a fingerprint not there (most calls') is found missing in a probe or two.
    if (used + 1) * 2 > slots.count { grow() }
    let slot = find(print)!
    if slots[slot].first < 0 {
      slots[slot] = Slot(print: print, first: entry, last: entry)
      used += 1
    } else {
      following[Int(slots[slot].last)] = entry
      slots[slot].last = entry
    }
  }

  /// No entries; the table's room kept unless it is mostly empty (a lane pruned after a burst).
  mutating func removeAll() {
    if used * 8 < slots.count {
      slots = []
    } else {
      for index in slots.indices { slots[index].first = -1 }
    }
    following.removeAll(keepingCapacity: true)
    used = 0
  }

  /// The slot of `print`, or the empty slot where it would go; `nil` while there are no slots.
  private func find(_ print: Int) -> Int? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: (UInt(bitPattern: print) &* 0x9e37_79b9_7f4a_7c15) >> 32) & mask
    while slots[slot].first >= 0, slots[slot].print != print { slot = (slot + 1) & mask }
    return slot
  }

  private mutating func grow() {
    let old = slots
    slots = Array(repeating: Slot(print: 0), count: max(16, 2 * old.count))
    for slot in old where slot.first >= 0 { slots[find(slot.print)!] = slot }
  }

  /// The numbers under one fingerprint, in the order added.
  struct Matches: Sequence {
    fileprivate let numbers: [Int32]
    fileprivate let following: [Int32]
    fileprivate let first: Int32

    /// How many.
    var count: Int {
      var (total, entry) = (0, first)
      while entry >= 0 {
        total += 1
        entry = following[Int(entry)]
      }
      return total
    }

    func makeIterator() -> Iterator { Iterator(matches: self, entry: first) }

    /// The numbers in the order added.
    struct Iterator: IteratorProtocol {
      let matches: Matches
      var entry: Int32

      mutating func next() -> Int32? {
        guard entry >= 0 else { return nil }
        defer { entry = matches.following[Int(entry)] }
        return matches.numbers[Int(entry)]
      }
    }
  }
}
