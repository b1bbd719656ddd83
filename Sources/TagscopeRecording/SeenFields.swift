/// Thrown by the fast decoders (``IndexScanner``, ``RecordFastPath``) when a line is not in the
/// shape they handle; the caller then falls back to the full decoder, which names the problem.
package struct FastPathFallback: Error {
  package init() {}
}

/// The fields of one JSON object already read, one bit each: a repeated field makes the line
/// malformed, and required fields are checked with ``contains(_:)``.
package struct SeenFields {
  private var bits = 0

  package init() {}

  /// Marks `bit` read; throws when it was read before (a duplicate key).
  @inline(__always)
  package mutating func claim(_ bit: Int) throws(FastPathFallback) {
    guard bits & bit == 0 else { throw FastPathFallback() }
    bits |= bit
  }

  /// Whether every bit of `mask` was read.
  @inline(__always)
  package func contains(_ mask: Int) -> Bool { bits & mask == mask }
}
