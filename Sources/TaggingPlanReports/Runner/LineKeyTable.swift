import TaggingPlan

/// The line cache's index: the position of each remembered key's entry, in an open-addressed table
/// whose slot is read from the key itself. A ``TaggingPlan/LineKey`` is already a 128-bit hash of
/// the line's content, so a look-up reads a slot or two and compares two words, where a
/// `Dictionary` hashed both halves again (SipHash) on every line of a recording.
///
/// Keys come from untrusted recordings: a look-up or an insertion reads at most ``probeLimit``
/// slots, so keys crowding one part of the table cost a bounded time each; a key that finds no
/// free slot within them is not remembered (its record is validated without the cache).
struct LineKeyTable {
  /// A key and its entry's position (`-1`: an empty slot).
  private struct Slot {
    var low: UInt64
    var high: UInt64
    var position: Int

    static let empty = Slot(low: 0, high: 0, position: -1)
  }

  /// Slots read at most by one look-up or insertion.
  static let probeLimit = 32
  /// Slots of a table's first allocation.
  static let initialSlots = 1_024

  /// Empty until the first insertion; a power of two, at most half full.
  private var slots: [Slot] = []
  /// Keys held.
  private(set) var count = 0

  /// The slot a probe for `key` starts at, in a table of `mask + 1` slots (both halves folded
  /// and multiplied, so keys alike in their low bits still spread).
  @inline(__always) static func start(_ key: LineKey, mask: Int) -> Int {
    let folded = (key.low ^ key.high.rotatedRight(29)) &* 0x9E37_79B9_7F4A_7C15
    return Int(truncatingIfNeeded: folded >> 32) & mask
  }

  /// The position remembered for `key`, if any.
  subscript(key: LineKey) -> Int? {
    guard !slots.isEmpty else { return nil }
    return slots.withUnsafeBufferPointer { table in
      let mask = table.count - 1
      var slot = Self.start(key, mask: mask)
      for _ in 0..<Self.probeLimit {
        let entry = table[slot]
        if entry.position < 0 { return nil }
        if entry.low == key.low, entry.high == key.high { return entry.position }
        slot = (slot + 1) & mask
      }
      return nil
    }
  }

  /// Remembers `position` for `key` (not in the table); `false`, nothing changed, when no free
  /// slot is within ``probeLimit`` of its start.
  @discardableResult
  mutating func insert(_ key: LineKey, position: Int) -> Bool {
    if 2 * (count + 1) > slots.count { grow() }
    guard let slot = Self.freeSlot(for: key, in: slots) else { return false }
    slots[slot] = Slot(low: key.low, high: key.high, position: position)
    count += 1
    return true
  }

  /// Forgets every key, keeping the table's room.
  mutating func removeAll() {
    guard count > 0 else { return }
    for index in slots.indices { slots[index] = .empty }
    count = 0
  }

  /// The first free slot of `key`'s probe in `table`, if one is within ``probeLimit``.
  private static func freeSlot(for key: LineKey, in table: [Slot]) -> Int? {
    let mask = table.count - 1
    var slot = start(key, mask: mask)
    for _ in 0..<probeLimit {
      if table[slot].position < 0 { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Doubles the table (``initialSlots`` at first), placing each key again; a key that finds no
  /// free slot in the larger table is dropped (not remembered any more).
  private mutating func grow() {
    let old = slots
    var table = [Slot](repeating: .empty, count: Swift.max(Self.initialSlots, 2 * old.count))
    var kept = 0
    for entry in old where entry.position >= 0 {
      let key = LineKey(low: entry.low, high: entry.high)
      guard let slot = Self.freeSlot(for: key, in: table) else { continue }
      table[slot] = entry
      kept += 1
    }
    slots = table
    count = kept
  }
}

extension UInt64 {
  fileprivate func rotatedRight(_ count: UInt64) -> UInt64 { (self >> count) | (self << (64 - count)) }
}
