/// A seeded random number generator (SplitMix64): the same seed gives the same numbers on every
/// machine, so a fuzzing case drawn from it (split points, endings, which header is mangled)
/// reproduces from its seed alone.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
  private var state: UInt64

  /// A generator started at `seed`.
  public init(seed: UInt64) { state = seed }

  /// A generator seeded by `bytes` (FNV-1a), so a saved input alone gives back its case.
  public init(bytes: some Sequence<UInt8>, salt: UInt64 = 0) {
    var hash: UInt64 = 0xCBF2_9CE4_8422_2325 ^ salt
    for byte in bytes {
      hash ^= UInt64(byte)
      hash &*= 0x0000_0100_0000_01B3
    }
    state = hash
  }

  /// The next 64 random bits.
  public mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }

  /// A number in `0..<bound` (0 when `bound` is at most 1), from the next 64 bits.
  public mutating func below(_ bound: Int) -> Int { bound <= 1 ? 0 : Int(next() % UInt64(bound)) }
}
