import TaggingPlan

/// How many violations of each severity a report counted, and whether they fail a run.
struct SeverityCounts {
  /// Violations of severity error.
  private(set) var errors = 0
  /// Violations of severity warning.
  private(set) var warnings = 0

  /// Every violation counted.
  var total: Int { errors + warnings }

  /// Counts one violation of `severity`.
  mutating func count(_ severity: Severity) {
    switch severity {
    case .error: errors += 1
    case .warning: warnings += 1
    }
  }

  /// Whether any violation counted is at or above `threshold`.
  func fails(at threshold: Severity) -> Bool {
    switch threshold {
    case .error: errors > 0
    case .warning: total > 0
    }
  }
}

extension CompactKeySet {
  /// Appends one part of a group key to `bytes`: its UTF-8 (`0xFE` for none), ended by `0xFF`,
  /// neither ever in UTF-8, so distinct parts make distinct keys.
  static func appendPart(_ part: String?, to bytes: inout [UInt8]) {
    if let part { bytes.append(contentsOf: part.utf8) } else { bytes.append(0xFE) }
    bytes.append(0xFF)
  }
}
