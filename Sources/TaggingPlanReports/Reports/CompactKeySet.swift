/// A set of byte strings, exact, kept in one buffer: the keys' bytes one after the other, each
/// numbered in the order it was added, found through an open-addressing table of those numbers. A
/// key costs its bytes and about 16 more, with no object or allocation of its own, so millions of
/// distinct keys stay small.
struct CompactKeySet {
  /// The keys' bytes, in the order they were added.
  private var storage: [UInt8] = []
  /// Where each key ends in `storage` (it starts where the one before ends).
  private var ends: [Int] = []
  /// Key numbers plus one (`0`: empty); a power of two long, at most half full.
  private var slots = [UInt32](repeating: 0, count: 16)
  /// The key being made, kept to be reused.
  private var scratch: [UInt8] = []

  /// The keys held.
  var count: Int { ends.count }

  /// Adds the key `make` writes into an empty buffer; whether it was not there yet.
  mutating func insertKey(_ make: (inout [UInt8]) -> Void) -> Bool {
    index(ofKey: make).inserted
  }

  /// The number of the key `make` writes into an empty buffer (in the order keys were added),
  /// added when not there yet.
  mutating func index(ofKey make: (inout [UInt8]) -> Void) -> (index: Int, inserted: Bool) {
    scratch.removeAll(keepingCapacity: true)
    make(&scratch)
    var slot = Self.hash(scratch[...]) & (slots.count - 1)
    while slots[slot] != 0 {
      let index = Int(slots[slot]) - 1
      if key(at: index).elementsEqual(scratch) { return (index, false) }
      slot = (slot + 1) & (slots.count - 1)
    }
    storage.append(contentsOf: scratch)
    ends.append(storage.count)
    slots[slot] = UInt32(ends.count)
    if ends.count * 2 > slots.count { grow() }
    return (ends.count - 1, true)
  }

  /// The bytes of key number `index`.
  func key(at index: Int) -> ArraySlice<UInt8> {
    storage[(index == 0 ? 0 : ends[index - 1])..<ends[index]]
  }

  /// Twice the slots, every key placed again.
  private mutating func grow() {
    var larger = [UInt32](repeating: 0, count: slots.count * 2)
    for index in ends.indices {
      var slot = Self.hash(key(at: index)) & (larger.count - 1)
      while larger[slot] != 0 { slot = (slot + 1) & (larger.count - 1) }
      larger[slot] = UInt32(index + 1)
    }
    slots = larger
  }

  /// The standard library's hash of the bytes (seeded per process: the table lives in one).
  private static func hash(_ bytes: ArraySlice<UInt8>) -> Int {
    var hasher = Hasher()
    bytes.withUnsafeBytes { hasher.combine(bytes: $0) }
    return hasher.finalize()
  }
}
