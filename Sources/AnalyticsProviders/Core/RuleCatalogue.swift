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

extension ProviderRules {
  /// Every rule the rule sets check, with its source; for the tagging plan's documentation, the
  /// debugger's help and reviews of the rules themselves.
  public static let catalogue: [RuleDescription] =
    firebaseRules + amplitudeRules + segmentRules + pianoRules
    + brazeRules + adobeRules + batchRules + mixpanelRules + fptiRules

  /// The description of a rule identifier.
  public static func describe(_ rule: String) -> RuleDescription? { catalogue.first { $0.id == rule } }
}

private func rule(
  _ id: String, _ summary: String, _ consequence: RuleViolation.Consequence, code: Int? = nil,
  _ source: String,
  confirmed: Bool = true, note: String? = nil
) -> RuleDescription {
  RuleDescription(
    id: id, summary: summary, consequence: consequence, errorCode: code, source: source, confirmed: confirmed,
    note: note)
}

private enum Source {
  static let firebaseReference =
    "https://firebase.google.com/docs/reference/ios/firebaseanalytics/interface_f_i_r_analytics"
  static let firebaseErrors = "https://firebase.google.com/docs/analytics/errors"
  static let gaNaming = "https://support.google.com/analytics/answer/13316687"
  static let gaLimits = "https://support.google.com/analytics/answer/9267744"
  static let firebaseScreens = "https://firebase.google.com/docs/analytics/screenviews"
  static let amplitudeV2 = "https://amplitude.com/docs/apis/analytics/http-v2"
  static let amplitudeBatch = "https://amplitude.com/docs/apis/analytics/batch-event-upload"
  static let segmentHTTP = "https://segment.com/docs/connections/sources/catalog/libraries/server/http-api/"
  static let pianoStandard =
    "https://developers.atinternet-solutions.com/piano-analytics/data-collection/how-to-send-events/standard-events"
  static let pianoProperties = "https://support.piano.io/hc/en-us/articles/4465980791314-Properties"
  static let brazeProperties =
    "https://braze-inc.github.io/braze-android-sdk/kdoc/braze-android-sdk/com.braze.models.outgoing/-braze-properties/"
  static let brazeEventProperties =
    "https://www.braze.com/docs/user_guide/data/activation/events/custom_events/custom_event_properties"
  static let brazeSwift =
    "https://www.braze.com/docs/developer_guide/platforms/swift/analytics/tracking_custom_events"
  static let brazeTypes = "https://www.braze.com/docs/user_guide/data/activation/custom_data/data_types/"
  static let brazePurchases = "https://www.braze.com/docs/developer_guide/analytics/logging_purchases/"
  static let adobeMethods =
    "https://experienceleague.adobe.com/docs/mobile-services/ios/analytics-ios/analytics-methods.html"
  static let adobeLifecycle = "https://experienceleague.adobe.com/docs/mobile-services/android/metrics.html"
  static let batchTrack =
    "https://pub.dev/documentation/batch_flutter/latest/batch_profile/BatchProfile/trackEvent.html"
  static let batchEventData =
    "https://pub.dev/documentation/batch_flutter/latest/batch_user/BatchEventData-class.html"
  static let batchAttributes = "https://doc.batch.com/developer/sdk/ios/profile-data/attributes"
  static let mixpanelTrack = "https://developer.mixpanel.com/reference/track-event"
  static let mixpanelImport = "https://developer.mixpanel.com/reference/import-events"
  static let mixpanelTypes = "https://docs.mixpanel.com/docs/data-structure/property-reference/data-type"
  static let seed004 =
    "seeds/004: gist hyperspacemark/93716aedcf40948a62d039d444c86326 (PayPal FPTI event types)"
}

private let firebaseRules: [RuleDescription] = [
  rule("firebase.event-name-length", "event name 1–40 characters", .replaced, code: 2, Source.firebaseErrors),
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
    "firebase.parameter-name", "parameter name 1–40 letters, digits, '_', starting with a letter", .replaced,
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

private let amplitudeRules: [RuleDescription] = [
  rule("amplitude.event-type-missing", "event_type required", .rejected, Source.amplitudeV2),
  rule(
    "amplitude.event-type-reserved", "not a reserved event type", .rejected, Source.amplitudeV2,
    confirmed: false,
    note:
      "reserved types are validated; the exact list ([Amplitude] …, $identify, $groupidentify) is our reading"
  ),
  rule("amplitude.id-length", "user and device IDs at least 5 characters", .dropped, Source.amplitudeBatch),
  rule(
    "amplitude.id-invalid", "not a placeholder ID (null, anonymous, 0…)", .dropped, Source.amplitudeV2,
    confirmed: false,
    note: "the exact list of invalid IDs was not confirmed"),
  rule(
    "amplitude.string-length", "string property values at most 1024 characters", .truncated,
    Source.amplitudeV2,
    confirmed: false, note: "not confirmed in the consulted pages"),
]

private let segmentRules: [RuleDescription] = [
  rule("segment.event-name-missing", "track has an event name", .rejected, Source.segmentHTTP),
  rule(
    "segment.identifier-missing", "identify, group and alias carry their ID", .rejected, Source.segmentHTTP,
    confirmed: false,
    note: "an empty identify userId degrades (anonymous only); group/alias rejection is our reading"),
  rule(
    "segment.identity-missing", "a recorded message has a userId or an anonymousId", .rejected,
    Source.segmentHTTP),
  rule("segment.message-size", "at most 32 KB per message", .rejected, Source.segmentHTTP),
]

private let pianoRules: [RuleDescription] = [
  rule(
    "piano.event-name-missing", "sendEvent has a name", .dropped, Source.pianoStandard, confirmed: false,
    note: "the collector's response to an unnamed event is not documented"),
  rule("piano.page-display-page", "page.display carries page", .degraded, Source.pianoStandard),
  rule("piano.click-name", "click.* carries click", .degraded, Source.pianoStandard),
  rule(
    "piano.click-type", "click events are action, navigation, download or exit", .degraded,
    Source.pianoStandard),
  rule(
    "piano.property-key-length", "property keys at most 40 characters", .dropped, Source.pianoProperties,
    confirmed: false, note: "the limit is documented; the consequence is our reading"),
  rule(
    "piano.string-length", "STRING values at most 255", .truncated, Source.pianoProperties, confirmed: false,
    note: "the limit is documented; the consequence is our reading"),
]

private let brazeRules: [RuleDescription] = [
  rule(
    "braze.event-name-missing", "custom events have a name", .dropped, Source.brazeSwift, confirmed: false,
    note: "SDK behaviour, not stated in the consulted pages"),
  rule("braze.key-dollar", "keys do not start with $", .dropped, Source.brazeProperties),
  rule("braze.key-length", "keys 1–255 characters", .dropped, Source.brazeProperties),
  rule(
    "braze.property-key-reserved", "no time or event_name property", .rejected, Source.brazeEventProperties),
  rule(
    "braze.property-value-length", "string property values at most 255 characters", .truncated,
    Source.brazeProperties),
  rule(
    "braze.attribute-value-length", "string attributes at most 255 characters", .truncated, Source.brazeTypes),
  rule(
    "braze.purchase-currency", "purchase currency is a 3-letter ISO 4217 code", .dropped,
    Source.brazePurchases,
    confirmed: false, note: "not re-checked in this session"),
]

private let adobeRules: [RuleDescription] = [
  rule("adobe.state-empty", "trackState has a state name", .degraded, Source.adobeMethods),
  rule(
    "adobe.context-key-reserved", "context data keys outside the a. namespace", .degraded,
    Source.adobeLifecycle),
  rule(
    "adobe.context-key-characters", "context data keys use letters, digits, '_' and '.'", .degraded,
    Source.adobeMethods, confirmed: false, note: "not confirmed in the consulted pages"),
]

private let batchRules: [RuleDescription] = [
  rule("batch.event-name", "event names 1–30 characters of [a-z0-9_]", .dropped, Source.batchTrack),
  rule("batch.event-label-length", "labels 1–200 characters", .dropped, Source.batchTrack),
  rule("batch.event-tag-count", "at most 10 event tags", .dropped, Source.batchEventData),
  rule("batch.event-attribute-count", "at most 15 event attributes", .dropped, Source.batchEventData),
  rule(
    "batch.event-attribute-name", "event attribute keys 1–30 characters of [a-z0-9_]", .dropped,
    Source.batchEventData),
  rule(
    "batch.attribute-name", "attribute names 1–30 characters of [a-z0-9_]", .dropped, Source.batchAttributes),
  rule(
    "batch.attribute-value-length", "string attributes 1–300 characters", .dropped, Source.batchAttributes),
  rule(
    "batch.tag-collection-name", "tag collections 1–30 characters of [a-z0-9_]", .dropped,
    Source.batchAttributes,
    confirmed: false, note: "not confirmed in the consulted pages"),
  rule(
    "batch.tag-length", "tags 1–64 characters", .dropped, Source.batchAttributes, confirmed: false,
    note: "not confirmed in the consulted pages"),
]

private let mixpanelRules: [RuleDescription] = [
  rule(
    "mixpanel.event-name-missing", "track has an event name", .replaced, Source.mixpanelTrack,
    confirmed: false,
    note: "the Swift SDK's 'mp_event' fallback is remembered from its source, not re-checked"),
  rule("mixpanel.property-count", "fewer than 255 properties", .rejected, Source.mixpanelTrack),
  rule("mixpanel.array-length", "arrays fewer than 255 elements", .rejected, Source.mixpanelTrack),
  rule("mixpanel.object-keys", "nested objects fewer than 255 keys", .rejected, Source.mixpanelTrack),
  rule("mixpanel.insert-id", "$insert_id at most 36 bytes of [A-Za-z0-9-]", .rejected, Source.mixpanelImport),
  rule(
    "mixpanel.string-length", "string values at most 255 bytes", .truncated, Source.mixpanelTypes,
    confirmed: false,
    note: "read through secondary quotes of Mixpanel's docs"),
]

private let fptiRules: [RuleDescription] = [
  rule(
    "fpti.event-name-missing", "events have a name", .degraded, Source.seed004, confirmed: false,
    note: "FPTI is PayPal-internal; its collector's behaviour is not public"),
  rule(
    "fpti.event-type-missing", "events carry e", .degraded, Source.seed004, confirmed: false,
    note: "FPTI is PayPal-internal; its collector's behaviour is not public"),
  rule(
    "fpti.event-type-invalid", "e is ac, cl, im, rd or ua", .degraded, Source.seed004, confirmed: false,
    note: "FPTI is PayPal-internal; its collector's behaviour is not public"),
]
