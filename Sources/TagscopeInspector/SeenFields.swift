/// Thrown by the fast decoders (``IndexScanner``, ``RecordFastPath``) when a line is not in the
/// shape they handle; the caller then falls back to the full decoder, which names the problem.
struct FastPathFallback: Error {}

/// The fields of one JSON object already read, one bit each: a repeated field makes the line
/// malformed, and required fields are checked with ``contains(_:)``.
struct SeenFields {
  private var bits = 0

  /// Marks `bit` read; throws when it was read before (a duplicate key).
  @inline(__always)
  mutating func claim(_ bit: Int) throws(FastPathFallback) {
    guard bits & bit == 0 else { throw FastPathFallback() }
    bits |= bit
  }

  /// Whether every bit of `mask` was read.
  @inline(__always)
  func contains(_ mask: Int) -> Bool { bits & mask == mask }
}
