/// What QA puts in a ticket for one broken expectation: the plan's expectation (its file and line)
/// beside what the record carried, one row per field, the rows that differ marked. The tagging
/// plan makes them (`PlanViolation.comparison`); the debugger shows them (`v`).
public struct ExpectationComparison: Sendable, Hashable {
  /// One compared field.
  public struct Row: Sendable, Hashable {
    /// `call`, `param podcast_title`, `property podcast_title`, `screen`, `tag`, `firebase rule`.
    public var field: String
    /// What the plan expects (`play_podcast_from_favorites`, `string, required, maxLength 20`).
    public var expected: String
    /// What the record carried (`play_podcast_from_podcasts`, `absent`).
    public var actual: String
    /// Whether this row breaks the expectation.
    public var differs: Bool

    /// A row.
    public init(field: String, expected: String, actual: String, differs: Bool) {
      self.field = field
      self.expected = expected
      self.actual = actual
      self.differs = differs
    }
  }

  /// The plan file (`plan` when the violation was not made by a validator).
  public var planFile: String
  /// The plan line of the expectation; `nil` for an unplanned tag or a provider's own rule.
  public var planLine: Int?
  /// `firebase play_podcast_from_favorites`, `property podcast_title`: what is compared.
  public var title: String
  /// The compared fields, in plan order.
  public var rows: [Row]
  /// What the `expected` column holds, as its heading says it: `expected (plan)`, `expected
  /// (provider rule)`, or for personal data `allowed (plan pii)` (the kinds the plan allows there).
  public var expectedHeading: String

  /// A comparison; `expectedHeading` defaults to `expected (plan)` when the expectation has a
  /// plan line, else `expected (provider rule)`.
  public init(planFile: String, planLine: Int?, title: String, rows: [Row], expectedHeading: String? = nil) {
    self.planFile = planFile
    self.planLine = planLine
    self.title = title
    self.rows = rows
    self.expectedHeading = expectedHeading ?? (planLine == nil ? Self.providerRuleHeading : Self.planHeading)
  }

  /// `expected (plan)`: the plan's expectation.
  public static let planHeading = "expected (plan)"
  /// `expected (provider rule)`: a provider's own documented rule.
  public static let providerRuleHeading = "expected (provider rule)"
  /// `allowed (plan pii)`: the personal data the plan allows at a place (`pii`, `privacy.allow`).
  public static let personalDataHeading = "allowed (plan pii)"
}
