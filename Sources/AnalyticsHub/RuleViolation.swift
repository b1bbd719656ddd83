/// A provider's documented rule broken by a call a mapping produced (name too long, reserved
/// prefix, too many parameters…), with what the real SDK does about it.
///
/// Violations travel with the dispatch to observers; they are never thrown at the app.
public struct RuleViolation: Sendable, Hashable {
  /// What the real SDK does with the offending call.
  public enum Consequence: String, Sendable, Hashable {
    /// The SDK drops the call (or the offending parameter/property).
    case dropped
    /// The SDK truncates the value.
    case truncated
    /// The SDK replaces the call by an error event or parameter (Firebase's `firebase_error`).
    case replaced
    /// The SDK's server rejects the request (HTTP 400).
    case rejected
    /// The SDK accepts it but the data is misleading or not usable in reports.
    case degraded
  }

  /// Stable identifier, `provider.rule-name` (`firebase.event-name-length`).
  public var rule: String
  /// A plain sentence naming the call, the value and the limit.
  public var message: String
  /// What the SDK does about it.
  public var consequence: Consequence
  /// The index of the offending call among the provider's calls for this tag.
  public var callIndex: Int?
  /// A provider error code where the SDK reports one (Firebase `firebase_error` value).
  public var errorCode: Int?

  /// A violation.
  public init(
    rule: String, message: String, consequence: Consequence, callIndex: Int? = nil, errorCode: Int? = nil
  ) {
    self.rule = rule
    self.message = message
    self.consequence = consequence
    self.callIndex = callIndex
    self.errorCode = errorCode
  }
}
