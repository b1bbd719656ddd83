/// The stable identifiers of plan violations, as written in reports (`rule` field).
public enum ViolationRule: String, Sendable, Hashable, CaseIterable {
  /// A screen, action, event, state or timed event the plan does not list.
  case unplannedTag = "unplanned-tag"
  /// A property the plan marks `required` is absent or null.
  case missingProperty = "missing-property"
  /// A property or parameter (or a value inside one, at its path) has another JSON type than
  /// planned.
  case wrongType = "wrong-type"
  /// A value outside its `enum`, `pattern`, `minimum`/`maximum` or `minLength`/`maxLength`, or a
  /// provider parameter with another value than planned.
  case invalidValue = "invalid-value"
  /// A property the entry's `properties` does not list.
  case unexpectedProperty = "unexpected-property"
  /// The tag happened on a screen outside the entry's `screens`.
  case wrongScreen = "wrong-screen"
  /// A planned provider call was not sent (the mapping dropped the tag or the SDK failed).
  case missingCall = "missing-call"
  /// The provider was sent calls, none with the planned name (or method).
  case wrongName = "wrong-name"
  /// The planned call lacks a planned parameter.
  case missingParam = "missing-param"
  /// The provider was sent a call where the plan says `none`.
  case unexpectedCall = "unexpected-call"
  /// The provider's own documented rule (AnalyticsProviders) is broken by a call.
  case providerRule = "provider-rule"
  /// A provider got a call its catalogue (`catalogues:`) has no entry for.
  case unplannedCall = "unplanned-call"
  /// A value a provider received looks like personal data (an email address, a phone number, an
  /// advertising id…) where the plan does not allow it (`pii:`); the value itself is never shown.
  case personalData = "personal-data"
  /// A tag with `after:` came with none of those tags before it in its session.
  case outOfOrder = "out-of-order"
  /// A tag with `once:` was sent again in the same session, screen visit or app launch.
  case repeated = "repeated"
  /// A tag with `duplicateWithin:` was sent again with the same properties within the window.
  case duplicate = "duplicate"
  /// A session stopped a funnel (`funnels:`) short of its last step, or a step came later than
  /// its `maxGap`.
  case funnelDropped = "funnel-dropped"
  /// A funnel's step came before the step due.
  case funnelOrder = "funnel-order"
  /// A provider got a call after consent for its category (or for it) was withdrawn, or before it
  /// was ever given under the plan's `consent: {default: denied}`.
  case consentWithdrawn = "consent-withdrawn"
  /// Calls the consent check could not check: a provider without a consent category, a wire
  /// source joined to no in-app device, a malformed consent record (reported once each).
  case consentUnchecked = "consent-unchecked"
}

extension ViolationRule {
  /// The rule's position in `allCases`.
  var ordinal: Int {
    switch self {
    case .unplannedTag: return 0
    case .missingProperty: return 1
    case .wrongType: return 2
    case .invalidValue: return 3
    case .unexpectedProperty: return 4
    case .wrongScreen: return 5
    case .missingCall: return 6
    case .wrongName: return 7
    case .missingParam: return 8
    case .unexpectedCall: return 9
    case .providerRule: return 10
    case .unplannedCall: return 11
    case .personalData: return 12
    case .outOfOrder: return 13
    case .repeated: return 14
    case .duplicate: return 15
    case .funnelDropped: return 16
    case .funnelOrder: return 17
    case .consentWithdrawn: return 18
    case .consentUnchecked: return 19
    }
  }
}
