/// Distinct keys numbered in the order added (0, 1, 2…), found by an open-addressing table of
/// 32-bit ids at most half full: a key costs its own bytes and about 8 more, where a dictionary
/// of key to id holds the key and id again in buckets up to three quarters empty. The index of a
/// diff's profile or a drafted plan, one entry per distinct tag.
package struct KeyIndex<Key: Hashable & Sendable>: Sendable {
  /// The keys, by id.
  package private(set) var keys: [Key] = []
  /// Ids by hash slot (`-1`: empty); a power of two long.
  private var slots: [Int32] = []

  package init() {}

  /// Keys added.
  package var count: Int { keys.count }

  /// The id of `key`, when it was added.
  package subscript(key: Key) -> Int32? {
    guard !slots.isEmpty else { return nil }
    let mask = slots.count - 1
    var slot = key.hashValue & mask
    while slots[slot] >= 0 {
      if keys[Int(slots[slot])] == key { return slots[slot] }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// The id of `key`, added when new (then `inserted`).
  package mutating func insert(_ key: Key) -> (id: Int32, inserted: Bool) {
    if let id = self[key] { return (id, false) }
    if (keys.count + 1) * 2 > slots.count {
      slots = Array(repeating: -1, count: max(16, slots.count * 2))
      for id in keys.indices { place(Int32(id)) }
    }
    let id = Int32(keys.count)
    keys.append(key)
    place(id)
    return (id, true)
  }

  private mutating func place(_ id: Int32) {
    let mask = slots.count - 1
    var slot = keys[Int(id)].hashValue & mask
    while slots[slot] >= 0 { slot = (slot + 1) & mask }
    slots[slot] = id
  }
}
