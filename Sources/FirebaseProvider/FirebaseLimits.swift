import AnalyticsProvidersCore

/// Firebase Analytics' (Google Analytics 4 for apps) limits and reserved names, with the checks of
/// lengths and counts against them (names are checked by ``FirebaseNameProblem``): the one table
/// the hub's ``FirebaseRules`` and `tagscope listen`'s Measurement Protocol checks both read, so
/// the two cannot drift apart.
///
/// Lengths are counted as the SDK counts them, in UTF-16 code units (`NSString.length` on Apple
/// platforms, Java `String.length()` on Android) — see ``length(_:)``. Google's pages say
/// "characters" without more; for names, which are letters, digits and underscores, the units
/// agree for every Latin name. Where the Measurement Protocol's server checks differ from the app
/// SDK's, the difference is named here (``webReservedEventNames``, ``maximumEventsPerRequest``)
/// rather than written in a second table.
///
/// Sources: the `FirebaseAnalytics.Event` and `FIRAnalytics` references (names, reserved event
/// names and prefixes, 25 parameters, 100-character values, user properties 24/36); Google
/// Analytics Help "Event naming rules" (answer 13316687: reserved names per stream type, reserved
/// user property names, non-English letters allowed) and "Event collection limits" (answer
/// 9267744: 500 event types, 25 user properties); the Measurement Protocol reference (25 events
/// per request).
public enum FirebaseLimits {
  /// Event, parameter names: 1 to 40.
  public static let maximumNameLength = 40
  /// Parameters per event.
  public static let maximumParameters = 25
  /// A string parameter value.
  public static let maximumStringValueLength = 100
  /// A user property name: 1 to 24.
  public static let maximumUserPropertyNameLength = 24
  /// A user property value.
  public static let maximumUserPropertyValueLength = 36
  /// Distinct user properties per app instance (and per Measurement Protocol request).
  public static let maximumUserProperties = 25
  /// Distinct event types per app instance.
  public static let maximumEventTypes = 500
  /// A user id.
  public static let maximumUserIDLength = 256
  /// Events in one Measurement Protocol request (the server's limit; the SDK batches itself).
  public static let maximumEventsPerRequest = 25

  /// Prefixes no event, parameter or user property name may start with.
  public static let reservedPrefixes = ["firebase_", "google_", "ga_"]

  /// Event names an app (Android and iOS SDKs, and app streams over the Measurement Protocol)
  /// may not log: "events with these names will be dropped, and instead an error event will be
  /// logged".
  public static let reservedEventNames: Set<String> = [
    "ad_activeview", "ad_click", "ad_exposure", "ad_query", "ad_reward", "adunit_exposure", "app_background",
    "app_clear_data", "app_exception", "app_remove", "app_store_refund", "app_store_subscription_cancel",
    "app_store_subscription_convert", "app_store_subscription_renew", "app_update", "app_upgrade",
    "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open", "error", "first_open",
    "first_visit", "in_app_purchase", "notification_dismiss", "notification_foreground", "notification_open",
    "notification_receive", "os_update", "session_start", "session_start_with_rollout", "user_engagement",
  ]

  /// Event names a web stream may not send (a Measurement Protocol request with a
  /// `measurement_id`): the automatically collected web events.
  public static let webReservedEventNames: Set<String> = [
    "ad_impression", "app_remove", "app_store_refund", "app_store_subscription_cancel",
    "app_store_subscription_renew", "click", "error", "file_download", "first_open", "first_visit",
    "form_start",
    "form_submit", "in_app_purchase", "page_view", "scroll", "session_start", "user_engagement",
    "view_complete",
    "video_progress", "video_start", "view_search_results",
  ]

  /// User property names no app may set.
  public static let reservedUserPropertyNames: Set<String> = [
    "first_open_time", "first_visit_time", "last_deep_link_referrer", "user_id", "first_open_after_install",
  ]

  /// A name's length as Firebase counts it: UTF-16 code units.
  public static func length(_ text: String) -> Int { TextChecks.length(text) }

  /// The length of string parameter value `text` when it is over ``maximumStringValueLength``,
  /// or `nil` when it fits.
  public static func overlongParameterValue(_ text: String) -> Int? {
    overlong(text, maximum: maximumStringValueLength)
  }

  /// The length of user property value `text` when it is over
  /// ``maximumUserPropertyValueLength``, or `nil` when it fits.
  public static func overlongUserPropertyValue(_ text: String) -> Int? {
    overlong(text, maximum: maximumUserPropertyValueLength)
  }

  /// Whether one event's `count` parameters are more than Firebase keeps.
  public static func hasTooManyParameters(_ count: Int) -> Bool { count > maximumParameters }

  /// Whether `count` distinct user properties are more than Firebase keeps.
  public static func hasTooManyUserProperties(_ count: Int) -> Bool { count > maximumUserProperties }

  /// Whether `count` distinct event types are more than Firebase keeps.
  public static func hasTooManyEventTypes(_ count: Int) -> Bool { count > maximumEventTypes }

  /// The reserved prefix `name` starts with, if any.
  public static func reservedPrefix(of name: String) -> String? {
    guard let first = name.utf8.first, first == 0x66 || first == 0x67 else { return nil }  // f, g
    for prefix in reservedPrefixes where name.hasPrefix(prefix) { return prefix }
    return nil
  }

  private static func overlong(_ text: String, maximum: Int) -> Int? {
    let length = length(text)
    return length > maximum ? length : nil
  }
}
