/// What the privacy check found in texts it scanned before, so a text that recurs (a screen name,
/// a schema URI, an app id, the same identifier in every record) is scanned once per validation.
///
/// A result is kept per text, the key naming it and the kinds looked for, with the key's context
/// (so a text found again does not read its key either); only texts a detector could match are
/// remembered (the others are ruled out by one cheap pass and never reach the memo). The table is
/// open-addressed on a hash of the text's and the key's bytes (``hash(_:)``, made in the pass
/// that summarizes the text), not Swift's `Hasher`, so a lookup costs one pass over a few words
/// and a comparison. Bounded like ``PatternMemo``: by count and by the bytes of text held; a
/// lookup reads at most ``probeLimit`` slots, whatever the texts.
struct PrivacyMemo: Sendable {
  /// What a text held under one key, looking for some kinds.
  struct Result: Sendable {
    /// The context of the key naming the text.
    var context: PIIKeyContext
    /// The kinds found, in the order they are reported.
    var found: [PIIKind]
  }

  private struct Entry: Sendable {
    var text: String
    var key: String
    var kinds: PIIKinds
    var result: Result
  }

  /// Results kept at most; later texts are scanned without being remembered.
  static let limit = 65_536
  /// Bytes of remembered text at most (each result counts its text, its key and 64 bytes of
  /// table).
  static let byteLimit = 4 << 20
  /// Slots a lookup reads at most before scanning without remembering.
  static let probeLimit = 32

  /// Each slot's hash (0: empty), then its entry at the same position.
  private var hashes: [UInt64] = []
  private var entries: [Entry?] = []
  /// How many results are remembered.
  private(set) var count = 0
  /// The bytes the remembered results hold, as ``byteLimit`` counts them.
  private(set) var bytes = 0
  /// The bytes this memo may hold (``byteLimit`` unless a test asks for less).
  let maximumBytes: Int

  /// An empty memo.
  init() { maximumBytes = Self.byteLimit }

  /// An empty memo holding at most `maximumBytes`.
  init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

  /// The result for `text` (whose bytes hash to `textHash`) under the key `key`, looking for
  /// `kinds`: from memory when it was scanned before, else from `scan`.
  mutating func result(
    for text: String, textHash: UInt64, key: String, looking kinds: PIIKinds, scan: () -> Result
  ) -> Result {
    let hash = Self.combine(textHash, key: key, kinds: kinds)
    var slot = 0
    var free: Int?
    if !hashes.isEmpty {
      let mask = hashes.count - 1
      slot = Int(truncatingIfNeeded: hash) & mask
      for _ in 0..<Self.probeLimit {
        let stored = hashes[slot]
        if stored == 0 {
          free = slot
          break
        }
        if stored == hash, let entry = entries[slot], entry.kinds == kinds, entry.key == key,
          entry.text == text
        {
          return entry.result
        }
        slot = (slot + 1) & mask
      }
    }
    let result = scan()
    let size = text.utf8.count + key.utf8.count + 64
    guard count < Self.limit, bytes + size <= maximumBytes else { return result }
    if count * 2 >= hashes.count {
      grow()
      free = emptySlot(for: hash)
    }
    guard let free else { return result }
    hashes[free] = hash
    entries[free] = Entry(text: text, key: key, kinds: kinds, result: result)
    count += 1
    bytes += size
    return result
  }

  /// The first empty slot of `hash`'s probe, if one is within ``probeLimit``.
  private func emptySlot(for hash: UInt64) -> Int? {
    let mask = hashes.count - 1
    var slot = Int(truncatingIfNeeded: hash) & mask
    for _ in 0..<Self.probeLimit {
      if hashes[slot] == 0 { return slot }
      slot = (slot + 1) & mask
    }
    return nil
  }

  /// Doubles the table (64 slots at first), placing each result again.
  private mutating func grow() {
    let oldHashes = hashes
    let oldEntries = entries
    let capacity = Swift.max(64, hashes.count * 2)
    hashes = Array(repeating: 0, count: capacity)
    entries = Array(repeating: nil, count: capacity)
    count = 0
    bytes = 0
    for index in oldHashes.indices where oldHashes[index] != 0 {
      guard let entry = oldEntries[index], let slot = emptySlot(for: oldHashes[index]) else { continue }
      hashes[slot] = oldHashes[index]
      entries[slot] = entry
      count += 1
      bytes += entry.text.utf8.count + entry.key.utf8.count + 64
    }
  }

  /// A hash of `bytes`, eight at a time (a multiply and a shift each), never 0.
  static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
    var hash = 0x243F_6A88_85A3_08D3 ^ UInt64(bytes.count)
    guard let base = bytes.baseAddress else { return finish(hash) }
    let raw = UnsafeRawPointer(base)
    var offset = 0
    while offset + 8 <= bytes.count {
      hash = mix(hash, raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
      offset += 8
    }
    if offset < bytes.count {
      var tail: UInt64 = 0
      for index in offset..<bytes.count { tail |= UInt64(base[index]) << (8 * UInt64(index - offset)) }
      hash = mix(hash, tail)
    }
    return finish(hash)
  }

  /// `textHash` with the key's bytes and the kinds folded in, never 0.
  static func combine(_ textHash: UInt64, key: String, kinds: PIIKinds) -> UInt64 {
    var key = key
    let keyHash = key.withUTF8 { hash($0) }
    return finish(mix(mix(textHash, keyHash), UInt64(truncatingIfNeeded: kinds.rawValue)))
  }

  @inline(__always) private static func mix(_ hash: UInt64, _ word: UInt64) -> UInt64 {
    let mixed = (hash ^ word) &* 0x9E37_79B9_7F4A_7C15
    return mixed ^ (mixed >> 29)
  }

  /// The last mix (murmur's), with 0 kept for empty slots.
  @inline(__always) private static func finish(_ hash: UInt64) -> UInt64 {
    var hash = hash
    hash ^= hash >> 33
    hash = hash &* 0xFF51_AFD7_ED55_8CCD
    hash ^= hash >> 33
    return hash == 0 ? 1 : hash
  }
}
