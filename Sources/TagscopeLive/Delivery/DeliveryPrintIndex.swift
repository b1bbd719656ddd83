/// A lane's entries by their parameters' fingerprint (``DeliveryLane``): a plain table, open
/// addressing over the fingerprints, each slot holding the place of its fingerprint's head (the
/// fingerprint and its first and last entry) in a dense array, and each entry the one after it with
/// the same fingerprint. Entries are places in the lane's array of numbers, added in order; no
/// hashing of its own (a fingerprint is already mixed) and no box per fingerprint, where a
/// dictionary of arrays hashed each key again and held one for each. A slot is 4 bytes, so the
/// table's room (two to four slots per fingerprint, to stay at most half full) costs a quarter of
/// what slots holding the heads themselves (16 bytes) did: most of a lane of wire calls no call
/// explains yet, each with its own parameters.
struct DeliveryPrintIndex {
  private struct Head {
    var print: Int
    /// The first and last entry with `print`.
    var first: Int32
    var last: Int32
  }

  /// A power of two, or empty before the first entry: places in `heads`, -1 an empty slot.
  private var slots: [Int32] = []
  /// One for each fingerprint added, in the order first added.
  private var heads: [Head] = []
  /// By entry: the next entry with its fingerprint (-1: none; also for a place never added).
  private var following: [Int32] = []

  /// The entries with fingerprint `print`, as numbers of `numbers` (the lane's array the entries
  /// are places in), in the order added.
  func matches(_ print: Int, in numbers: [Int32]) -> Matches {
    guard let slot = find(print), slots[slot] >= 0 else {
      return Matches(numbers: numbers, following: following, first: -1)
    }
    return Matches(numbers: numbers, following: following, first: heads[Int(slots[slot])].first)
  }

  /// Adds entry `entry` (a place after every place added so far) with fingerprint `print`.
  mutating func add(_ entry: Int32, print: Int) {
    while following.count <= Int(entry) { following.append(-1) }
    // At most half full: a fingerprint not there (most calls') is found missing in a probe or two.
    if (heads.count + 1) * 2 > slots.count { grow() }
    let slot = find(print)!
    if slots[slot] < 0 {
      slots[slot] = Int32(heads.count)
      heads.append(Head(print: print, first: entry, last: entry))
    } else {
      let head = Int(slots[slot])
      // Every entry of the fingerprint may have been let go of (``remove(_:where:)``).
      if heads[head].last >= 0 { following[Int(heads[head].last)] = entry } else { heads[head].first = entry }
      heads[head].last = entry
    }
  }

  /// Lets go of the oldest entries with fingerprint `print` past the last `limit` (they stay in
  /// the lane's array of numbers, no longer found under `print` nor by ``forEachEntry(_:)``).
  mutating func keepLast(_ limit: Int, of print: Int) {
    precondition(limit > 0, "an index keeps at least one entry of a fingerprint")
    guard let slot = find(print), slots[slot] >= 0 else { return }
    let head = Int(slots[slot])
    var (count, entry) = (0, heads[head].first)
    while entry >= 0 {
      count += 1
      entry = following[Int(entry)]
    }
    guard count > limit else { return }
    entry = heads[head].first
    for _ in 0..<(count - limit) { entry = following[Int(entry)] }
    heads[head].first = entry
  }

  /// Lets go of the entries with fingerprint `print` that `isGone` says are (by their places), the
  /// others kept in order.
  mutating func remove(_ print: Int, where isGone: (Int32) -> Bool) {
    guard let slot = find(print), slots[slot] >= 0 else { return }
    let head = Int(slots[slot])
    var (first, last, entry): (Int32, Int32, Int32) = (-1, -1, heads[head].first)
    while entry >= 0 {
      let next = following[Int(entry)]
      if !isGone(entry) {
        if last >= 0 { following[Int(last)] = entry } else { first = entry }
        last = entry
      }
      entry = next
    }
    if last >= 0 { following[Int(last)] = -1 }
    (heads[head].first, heads[head].last) = (first, last)
  }

  /// Calls `body` with each entry with fingerprint `print` (a place in the lane's arrays), in the
  /// order added.
  func forEachPlace(of print: Int, _ body: (Int32) -> Void) {
    guard let slot = find(print), slots[slot] >= 0 else { return }
    var entry = heads[Int(slots[slot])].first
    while entry >= 0 {
      body(entry)
      entry = following[Int(entry)]
    }
  }

  /// Calls `body` with each entry added and its fingerprint.
  func forEachEntry(_ body: (Int32, Int) -> Void) {
    for head in heads {
      var entry = head.first
      while entry >= 0 {
        body(entry, head.print)
        entry = following[Int(entry)]
      }
    }
  }

  /// No entries; the table's room kept unless it is mostly empty (a lane pruned after a burst).
  mutating func removeAll() {
    if heads.count * 8 < slots.count {
      slots = []
      heads = []
    } else {
      for index in slots.indices { slots[index] = -1 }
      heads.removeAll(keepingCapacity: true)
    }
    following.removeAll(keepingCapacity: true)
  }

  /// The slot of `print`, or the empty slot where it would go; `nil` while there are no slots.
  private func find(_ print: Int) -> Int? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var slot = Int(truncatingIfNeeded: (UInt(bitPattern: print) &* 0x9e37_79b9_7f4a_7c15) >> 32) & mask
    while slots[slot] >= 0, heads[Int(slots[slot])].print != print { slot = (slot + 1) & mask }
    return slot
  }

  /// Doubles the table and places every head again (the heads stay where they are).
  private mutating func grow() {
    slots = Array(repeating: -1, count: max(16, 2 * slots.count))
    for place in heads.indices { slots[find(heads[place].print)!] = Int32(place) }
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
