import TaggingPlan

/// Line keys seen before, as a fixed table of ``slots`` entries (8 bytes each, 1 MiB) indexed by
/// one half of the key and holding the other: a newer key may take an older one's slot, so it
/// answers "seen" only for keys seen before (or, rarely, for another key with the same slot and
/// half), never more memory than the table. A hint for the line cache's admission, never a
/// result.
struct SeenKeys {
  /// Entries of the table.
  static let slots = 1 << 17
  /// Empty until the first key; a slot holds its key's `high | 1` (0: empty).
  private var table: [UInt64] = []

  /// Notes `key`; whether it was noted before.
  mutating func insert(_ key: LineKey) -> Bool {
    if table.isEmpty { table = [UInt64](repeating: 0, count: Self.slots) }
    let slot = Int(truncatingIfNeeded: key.low) & (Self.slots - 1)
    let tag = key.high | 1
    if table[slot] == tag { return true }
    table[slot] = tag
    return false
  }

  /// Forgets every key.
  mutating func removeAll() { table = [] }
}
