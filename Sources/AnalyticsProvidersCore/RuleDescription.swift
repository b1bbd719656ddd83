import AnalyticsHub

/// One documented provider rule: its stable identifier, what it checks, what the SDK does about
/// a call that breaks it, where the rule comes from and whether that source confirmed it.
public struct RuleDescription: Sendable, Hashable {
  /// Stable identifier, as in ``RuleViolation/rule`` (`firebase.event-name-length`).
  public var id: String
  /// What is checked, in a few words.
  public var summary: String
  /// What the SDK does with an offending call.
  public var consequence: RuleViolation.Consequence
  /// The provider's error code, where it reports one (Firebase `firebase_error`).
  public var errorCode: Int?
  /// The page the rule comes from.
  public var source: String
  /// Whether the limit and its consequence were confirmed in `source`; `false` marks our best
  /// reading (see `note`).
  public var confirmed: Bool
  /// What could not be confirmed, when `confirmed` is `false`.
  public var note: String?

  /// The provider part of the identifier (`firebase`).
  public var provider: String { String(id.prefix { $0 != "." }) }
}

/// A rule description; each provider module lists its rules with it.
package func rule(
  _ id: String, _ summary: String, _ consequence: RuleViolation.Consequence, code: Int? = nil,
  _ source: String,
  confirmed: Bool = true, note: String? = nil
) -> RuleDescription {
  RuleDescription(
    id: id, summary: summary, consequence: consequence, errorCode: code, source: source, confirmed: confirmed,
    note: note)
}
