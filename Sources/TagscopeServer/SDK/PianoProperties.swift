import AnalyticsHub
import Foundation

/// A Piano Analytics event's `data`, split into the app's properties (the in-app `sendEvent`
/// call's) and those the SDK adds, each key without its forced-type prefix.
///
/// The SDK's own keys are those at-internet/piano-analytics-android's
/// `eventprocessors/InternalPropertiesEventProcessor.kt`, `ContextPropertiesEventProcessor`,
/// `PrivacyEventProcessor` and `UserEventProcessor` @ f3351cb99253fe82db771acfb54aacdbf2582380 add
/// (names from `model/PropertyName.kt`).
struct PianoProperties {
  /// The properties the SDK adds to every event.
  static let sdkKeys: Set<String> = [
    "app_crash", "app_crash_class", "app_crash_screen", "app_dsfs", "app_dsls", "app_dsu", "app_fs",
    "app_fsau",
    "app_fsd", "app_fsdau", "app_id", "app_sc", "app_scsu", "app_sessionid", "app_version",
    "browser_language",
    "browser_language_local", "connection_type", "device_manufacturer", "device_model",
    "device_screen_height",
    "device_screen_width", "device_timestamp_utc", "event_collection_platform", "event_collection_version",
    "os",
    "os_group", "os_version", "user_category", "user_id", "user_recognition", "visitor_privacy_consent",
    "visitor_privacy_mode",
  ]

  /// The type prefixes of `Property.kt`'s forced types.
  static let typePrefixes = ["a:s:", "a:n:", "a:f:", "a:b:", "s:", "n:", "f:", "d:", "b:"]

  /// The app's properties.
  var app = Properties()
  /// The SDK's.
  var sdk = Properties()
  /// The forced types, by key (`custom`: `s`).
  var forcedTypes = Properties()

  init(_ data: Properties) {
    for (sent, value) in data {
      var key = sent
      if let prefix = Self.typePrefixes.first(where: { sent.hasPrefix($0) }) {
        key = String(sent.dropFirst(prefix.count))
        forcedTypes.appendUnchecked(key, .string(String(prefix.dropLast())))
      }
      if Self.sdkKeys.contains(key) {
        sdk.appendUnchecked(key, value)
      } else {
        app.appendUnchecked(key, value)
      }
    }
  }

  /// When the SDK says the event happened (`device_timestamp_utc`, seconds).
  var time: Date? { sdk["device_timestamp_utc"]?.doubleValue.flatMap { Payload.date(seconds: $0) } }

  /// What the record keeps beside the call: the SDK's properties and the forced types.
  var annotations: Properties {
    var annotations = Properties()
    if !sdk.isEmpty { annotations.appendUnchecked("sdk_properties", .object(sdk)) }
    if !forcedTypes.isEmpty { annotations.appendUnchecked("forced_types", .object(forcedTypes)) }
    return annotations
  }
}
