/// SipHash-2-4 keyed by a salt: the stable pseudonym of a redacted value (the same value and salt
/// give the same hash; without the salt, the value cannot be checked against a guess).
struct SaltedHash: Sendable {
  private let key0: UInt64
  private let key1: UInt64

  /// A hash keyed by `salt`'s bytes (any length).
  init(salt: [UInt8]) {
    let first = salt.withUnsafeBufferPointer {
      SaltedHash.sipHash($0, 0x736f_6d65_7073_6575, 0x646f_7261_6e64_6f6d)
    }
    let second = salt.withUnsafeBufferPointer { SaltedHash.sipHash($0, first, 0x6c79_6765_6e65_7261) }
    key0 = first
    key1 = second
  }

  /// The hash of `bytes`.
  func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 { Self.sipHash(bytes, key0, key1) }

  static func sipHash(_ bytes: UnsafeBufferPointer<UInt8>, _ k0: UInt64, _ k1: UInt64) -> UInt64 {
    var v0: UInt64 = 0x736f_6d65_7073_6575 ^ k0
    var v1: UInt64 = 0x646f_7261_6e64_6f6d ^ k1
    var v2: UInt64 = 0x6c79_6765_6e65_7261 ^ k0
    var v3: UInt64 = 0x7465_6462_7974_6573 ^ k1
    func round() {
      v0 = v0 &+ v1
      v1 = (v1 << 13) | (v1 >> 51)
      v1 ^= v0
      v0 = (v0 << 32) | (v0 >> 32)
      v2 = v2 &+ v3
      v3 = (v3 << 16) | (v3 >> 48)
      v3 ^= v2
      v0 = v0 &+ v3
      v3 = (v3 << 21) | (v3 >> 43)
      v3 ^= v0
      v2 = v2 &+ v1
      v1 = (v1 << 17) | (v1 >> 47)
      v1 ^= v2
      v2 = (v2 << 32) | (v2 >> 32)
    }
    let count = bytes.count
    var index = 0
    while index + 8 <= count {
      var word: UInt64 = 0
      for offset in 0..<8 { word |= UInt64(bytes[index + offset]) << (8 * UInt64(offset)) }
      v3 ^= word
      round()
      round()
      v0 ^= word
      index += 8
    }
    var last = UInt64(truncatingIfNeeded: count) << 56
    var offset: UInt64 = 0
    while index < count {
      last |= UInt64(bytes[index]) << (8 * offset)
      offset += 1
      index += 1
    }
    v3 ^= last
    round()
    round()
    v0 ^= last
    v2 ^= 0xff
    round()
    round()
    round()
    round()
    return v0 ^ v1 ^ v2 ^ v3
  }
}
