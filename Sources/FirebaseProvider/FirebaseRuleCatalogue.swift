import AnalyticsHub
import AnalyticsProvidersCore

extension FirebaseRules {
  /// Every rule ``FirebaseRules`` checks, with its source (listed by `ProviderRules.catalogue`).
  package static let catalogue: [RuleDescription] = [
    rule(
      "firebase.event-name-length", "event name 1–40 characters", .replaced, code: 2, Source.firebaseErrors),
    rule(
      "firebase.event-name-characters", "event name letters, digits, '_', starting with a letter", .replaced,
      code: 2,
      Source.firebaseReference),
    rule(
      "firebase.event-name-reserved-prefix", "no firebase_, google_, ga_ prefix", .replaced, code: 13,
      Source.firebaseReference, confirmed: false,
      note: "the prefixes are documented as reserved; which firebase_error code fires (13) is our reading"),
    rule(
      "firebase.event-name-reserved", "not a reserved event name (session_start…)", .replaced, code: 13,
      Source.firebaseReference),
    rule(
      "firebase.event-type-count", "at most 500 distinct event names per app instance", .dropped, code: 8,
      Source.gaLimits),
    rule(
      "firebase.screen-view-name", "screen_view carries screen_name", .degraded, Source.firebaseScreens,
      confirmed: false,
      note: "reports show '(not set)' without it; not an SDK error"),
    rule("firebase.parameter-count", "at most 25 parameters", .dropped, code: 5, Source.firebaseErrors),
    rule(
      "firebase.parameter-name", "parameter name 1–40 letters, digits, '_', starting with a letter",
      .replaced,
      code: 3,
      Source.firebaseErrors),
    rule(
      "firebase.parameter-name-reserved", "no reserved parameter prefix", .replaced, code: 14,
      Source.firebaseErrors),
    rule(
      "firebase.parameter-value-length", "string values at most 100 characters", .dropped, code: 4,
      Source.firebaseErrors),
    rule(
      "firebase.parameter-value-type", "values are strings or numbers (arrays only for items)", .dropped,
      Source.firebaseReference, confirmed: false, note: "the SDK's handling of other types is not documented"),
    rule(
      "firebase.user-property-name", "user property name 1–24 letters, digits, '_', starting with a letter",
      .replaced,
      code: 6, Source.firebaseErrors),
    rule(
      "firebase.user-property-reserved", "not a reserved user property name or prefix", .replaced, code: 15,
      Source.gaNaming),
    rule(
      "firebase.user-property-value-length", "user property value at most 36 characters", .replaced, code: 7,
      Source.firebaseErrors),
    rule(
      "firebase.user-property-count", "at most 25 user properties per app instance", .dropped, code: 9,
      Source.gaLimits),
    rule(
      "firebase.user-id-length", "user ID 1–256 characters", .dropped, Source.firebaseReference,
      confirmed: false,
      note: "the limit is documented; what the SDK does with a longer ID is not"),
  ]
}

private enum Source {
  static let firebaseErrors = "https://firebase.google.com/docs/analytics/errors"
  static let firebaseReference =
    "https://firebase.google.com/docs/reference/ios/firebaseanalytics/interface_f_i_r_analytics"
  static let firebaseScreens = "https://firebase.google.com/docs/analytics/screenviews"
  static let gaLimits = "https://support.google.com/analytics/answer/9267744"
  static let gaNaming = "https://support.google.com/analytics/answer/13316687"
}
