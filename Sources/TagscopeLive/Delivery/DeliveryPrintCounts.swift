/// How many entries of each fingerprint a lane's pruning kept so far (``DeliveryLane``): a plain
/// table, open addressing over the fingerprints, sized once for the entries it may count and at
/// most half full, with no hashing of its own (a fingerprint is already mixed), where a dictionary
/// hashed each fingerprint again and grew as it went.
struct DeliveryPrintCounts {
  private var prints: [Int]
  /// By slot: the count of its fingerprint; 0: an empty slot.
  private var counts: [Int32]

  /// A table for at most `capacity` fingerprints.
  init(capacity: Int) {
    var size = 16
    while size < 2 * capacity { size <<= 1 }
    prints = Array(repeating: 0, count: size)
    counts = Array(repeating: 0, count: size)
  }

  /// Counts one more entry of `print` if fewer than `limit` are counted; returns whether it did.
  mutating func add(_ print: Int, below limit: Int) -> Bool {
    let mask = counts.count - 1
    var slot = Int(truncatingIfNeeded: (UInt(bitPattern: print) &* 0x9e37_79b9_7f4a_7c15) >> 32) & mask
    while counts[slot] > 0, prints[slot] != print { slot = (slot + 1) & mask }
    guard counts[slot] < limit else { return false }
    prints[slot] = print
    counts[slot] += 1
    return true
  }
}
