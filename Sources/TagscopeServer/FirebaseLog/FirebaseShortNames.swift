/// The SDK's internal short names (`_vs`, `_o`…) and the public names they stand for.
///
/// The debug log prints both (`screen_view (_vs)`, `ga_event_origin(_o)`), so these are only
/// needed when a line prints a short name alone. The public names are those Google documents for
/// the automatically collected events and their parameters ("[GA4] Automatically collected
/// events", support.google.com/analytics/answer/9234069); each pairing below is one the real
/// lines in `Tests/Fixtures/firebase-log` show.
enum FirebaseShortNames {
  /// Events the SDK logs by itself, by short name.
  static let events: [String: String] = [
    "_e": "user_engagement", "_s": "session_start", "_vs": "screen_view", "_ab": "app_background",
    "_f": "first_open", "_au": "app_update", "_ui": "app_remove", "_ou": "os_update",
    "_cd": "app_clear_data", "_ae": "app_exception", "_iap": "in_app_purchase", "_err": "error",
    // Seen only on the wire (`app-measurement.com/a`): the SDK's parallel name arrays
    // (play-services-measurement-base, decompiled), as issue 45's research lists them.
    "_in": "app_install", "_ug": "app_upgrade", "_cmp": "firebase_campaign", "_v": "first_visit",
    "_nd": "notification_dismiss", "_nf": "notification_foreground", "_no": "notification_open",
    "_nr": "notification_receive", "_ssr": "session_start_with_rollout",
  ]

  /// Parameters, by short name (the names the debug log prints beside them).
  static let parameters: [String: String] = [
    "_o": "ga_event_origin", "_et": "engagement_time_msec", "_sn": "ga_screen", "_sc": "ga_screen_class",
    "_si": "ga_screen_id", "_pn": "ga_previous_screen", "_pc": "ga_previous_class", "_pi": "ga_previous_id",
    "_sid": "ga_session_id", "_sno": "ga_session_number", "_dbg": "ga_debug", "_r": "ga_realtime",
    "_err": "ga_error", "_ev": "ga_error_value", "_el": "ga_error_length",
    // Seen only on the wire, named as in the SDK's arrays.
    "_c": "firebase_conversion", "_pfo": "previous_first_open_count", "_sys": "system_app",
    "_sysu": "system_app_update", "_uwa": "update_with_analytics", "_aib": "app_in_background",
    "_pv": "previous_app_version", "_po": "previous_os_version", "_pin": "previous_install_count",
  ]

  /// User properties the SDK sets itself, by short name (the SDK's arrays; the debug log prints
  /// the public name beside each).
  static let userProperties: [String: String] = [
    "_fot": "first_open_time", "_fvt": "first_visit_time", "_fi": "first_open_after_install",
    "_lte": "lifetime_user_engagement", "_se": "session_user_engagement", "_npa": "non_personalized_ads",
    "_sno": "ga_session_number", "_sid": "ga_session_id", "_id": "user_id", "_ldl": "last_deep_link_referrer",
    "_lgclid": "last_gclid",
  ]

  /// A screen view's screen, as the app names it with `logEvent(screen_view, …)`: the SDK prints
  /// `screen_name` as `ga_screen (_sn)` and `screen_class` as `ga_screen_class (_sc)`.
  static let screenViewParameters: [String: String] = ["_sn": "screen_name", "_sc": "screen_class"]

  /// ``events`` as a table a short name is found in without hashing it.
  static let eventTable = FirebaseShortNameTable(events)

  /// The public event name: the printed one, or the short name's when only that is printed.
  static func event(_ name: String, short: String?) -> String {
    if name.utf8.first == UInt8(ascii: "_"), let known = eventTable[name] { return known }
    if name.isEmpty, let short, let known = eventTable[short] { return known }
    return name
  }
}
