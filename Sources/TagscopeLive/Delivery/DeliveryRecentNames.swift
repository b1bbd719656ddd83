/// The names the delivery ledger's feed numbered last, by a cheap hash of their bytes: a name is
/// looked up here (its bytes hashed with FNV-1a, compared with the name in its slot) before it is
/// hashed into a dictionary, which costs several times more, once per call of every record.
struct DeliveryRecentNames {
  private static let slotCount = 128
  /// By slot: the number last given to a name of that slot (-1: none).
  private var numbers = [Int32](repeating: -1, count: DeliveryRecentNames.slotCount)

  /// The slot of `text` and `salt` (another number the name goes with, such as its provider's).
  static func slot(of text: String, salt: Int32 = 0) -> Int {
    let seed: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(UInt32(bitPattern: salt))
    let hash =
      text.utf8.withContiguousStorageIfAvailable { bytes in
        bytes.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
      } ?? text.utf8.reduce(seed) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    return Int(truncatingIfNeeded: (hash ^ (hash >> 29)) % UInt64(slotCount))
  }

  /// The number in `slot`, if any (the caller checks it is the name's).
  subscript(slot: Int) -> Int32? {
    get { numbers[slot] < 0 ? nil : numbers[slot] }
    set { numbers[slot] = newValue ?? -1 }
  }
}
