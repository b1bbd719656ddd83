import TaggingPlan

extension CatalogueWriter {
  /// The `pii` field of a property that may carry `kinds` of personal data, in the plan's own
  /// words (``TaggingPlan/PIIKind``): `pii: allowed` for every kind, else `pii: [email, adid]` in
  /// the kinds' order; `nil` for none.
  static func piiField(_ kinds: PIIKinds) -> String? {
    if kinds.isEmpty { return nil }
    if kinds == .all { return "pii: allowed" }
    let words = PIIKind.allCases.filter { kinds.contains($0) }.map(\.rawValue)
    return "pii: [\(words.joined(separator: ", "))]"
  }
}
