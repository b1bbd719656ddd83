import TaggingPlan

extension CatalogueWriter {
  /// The `pii` field of a property that may carry `kinds` of personal data, in the plan's own
  /// words (``TaggingPlan/PIIKinds/planText``): `pii: allowed` for every kind, else
  /// `pii: [email, adid]` in the kinds' order; `nil` for none.
  static func piiField(_ kinds: PIIKinds) -> String? {
    kinds.isEmpty ? nil : kinds.planText
  }
}
