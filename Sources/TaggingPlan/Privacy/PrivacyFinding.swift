import AnalyticsHub
import TagscopeRecording

/// Personal data found in a value a provider received: its kind and its place, never the value.
public struct PrivacyFinding: Sendable, Hashable {
  /// What was found.
  public var kind: PIIKind
  /// The provider that received it.
  public var provider: String
  /// The output's position in the record's `outputs`.
  public var output: Int
  /// The call's position in the output's `calls` (0 for a value among the batch's fields).
  public var call: Int
  /// Whether the value is among the fields the output's batch carries beside its calls
  /// (`CallCatalogue.batchField`: mParticle's `user_identities`), not a call's parameters.
  public var inBatch = false
  /// The call's method and name (`logEvent sign_up`); `batch` for the batch's fields.
  public var callLabel: String
  /// The parameter's path in the call's parameters (`email`, `user.contacts[1]`), or in the
  /// batch's fields (`user_identities.email`).
  public var path: String
  /// The value's length in characters (what a masked value shows).
  public var length: Int

  /// `outputs[0].calls[1].parameters.email` (`outputs[0].batch.user_identities.email`): the
  /// place in the record.
  public var place: String {
    inBatch
      ? "outputs[\(output)].\(CallCatalogue.batchField).\(path)"
      : "outputs[\(output)].calls[\(call)].parameters.\(path)"
  }

  /// `personal data: email at user.email, value masked (20 characters)`: what a report shows of
  /// the value (its kind, place and length, never its characters).
  public var maskedDescription: String {
    "personal data: \(kind.rawValue) at \(path), value masked (\(length) characters)"
  }
}

extension PIIKind {
  /// `an email address`, for messages.
  public var phrase: String {
    switch self {
    case .email: return "an email address"
    case .phone: return "a phone number"
    case .advertisingID: return "an advertising id"
    case .ip: return "an IP address"
    case .card: return "a payment card number"
    case .geo: return "a precise geolocation"
    case .token: return "a credential (token)"
    }
  }
}

extension PIIKinds {
  /// The kinds in the set, in ``PIIKind`` order.
  public var kinds: [PIIKind] { PIIKind.allCases.filter { contains($0) } }

  /// `pii: [email, phone]`, `pii: allowed`, or `no personal data (pii: none)`: what the plan
  /// allows at a place, in the plan's words.
  public var planText: String {
    if self == .all { return "pii: allowed" }
    if isEmpty { return "no personal data (pii: none)" }
    return "pii: [" + kinds.map(\.rawValue).joined(separator: ", ") + "]"
  }

  /// The kinds an integer can be.
  static let numbers: PIIKinds = [PIIKinds(.card), PIIKinds(.phone)]
  /// Geolocation, scanned apart so a pair's match does not hide another kind's.
  static let geolocation = PIIKinds(.geo)
}
