/// A count and its noun (`1 error`, `3 warnings`), for every sentence that counts: reports, the
/// live monitor's summary.
package enum CountWords {
  /// `count` followed by `word`, with an `s` unless the count is one.
  package static func plural(_ count: Int, _ word: String) -> String {
    "\(count) \(word)\(count == 1 ? "" : "s")"
  }
}
