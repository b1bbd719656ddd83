import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeVendors

/// A Piano Analytics event's `data`, split into the app's properties (the in-app `sendEvent`
/// call's) and those the SDK adds, each key without its forced-type prefix.
///
/// The SDK's own keys are the Piano descriptor's (`Vendor.piano`'s `sdkProperties`).
struct PianoProperties {
  /// The properties the SDK adds to every event: the Piano descriptor's
  /// ``Vendor/MessageFields/sdkProperties``.
  static let sdkKeys = Vendor.piano.messages?.sdkProperties ?? .none

  /// The type prefixes of `Property.kt`'s forced types.
  static let typePrefixes = ["a:s:", "a:n:", "a:f:", "a:b:", "s:", "n:", "f:", "d:", "b:"]

  /// The app's properties.
  var app = Properties()
  /// The SDK's.
  var sdk = Properties()
  /// The forced types, by key (`custom`: `s`).
  var forcedTypes = Properties()
  /// The keys sent again under another type (`dur` and `n:dur`), as sent, with their values: the
  /// first is kept, these are not (the caller reports them).
  var repeated: [(String, PropertyValue)] = []

  init(_ data: Properties) {
    var keys = Set<String>()
    for (sent, value) in data {
      var key = sent
      let prefix = Self.typePrefixes.first(where: { sent.hasPrefix($0) })
      if let prefix { key = String(sent.dropFirst(prefix.count)) }
      guard keys.insert(key).inserted else {
        repeated.append((sent, value))
        continue
      }
      if let prefix { forcedTypes.appendUnchecked(key, .string(String(prefix.dropLast()))) }
      if Self.sdkKeys.contains(key) {
        sdk.appendUnchecked(key, value)
      } else {
        app.appendUnchecked(key, value)
      }
    }
  }

  /// The record of the event `name` with these properties, as Piano Analytics' SDK calls it: its
  /// `sendEvent` with the app's properties; a `page.display` is a screen named by its `page`. Its
  /// time is when the SDK says the event happened (`device_timestamp_utc`, seconds), read as the
  /// event at `place` (`events[0]`) sent it (``SentTime``).
  func record(name: String, identity: DeviceIdentity, raw: String, credentials: Properties, place: String)
    -> IngestedEvent
  {
    let isScreen = name == PianoEvent.pageDisplay
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      sdk["device_timestamp_utc"], .seconds, field: "\(place).data.device_timestamp_utc",
      provider: Vendors.piano.rawValue, violations: &violations)
    var event = IngestedEvent(
      provider: Vendors.piano.rawValue, kind: isScreen ? .screen : .event,
      name: isScreen ? Payload.string(app["page"]) ?? name : name, properties: app, time: time,
      identity: identity, call: CallDescription(method: "sendEvent", name: name, parameters: app),
      violations: violations, raw: raw, recordsRaw: false, credentials: credentials)
    event.annotations = annotations
    return event
  }

  /// What the record keeps beside the call: the SDK's properties and the forced types.
  var annotations: Properties {
    var annotations = Properties()
    if !sdk.isEmpty { annotations.appendUnchecked("sdk_properties", .object(sdk)) }
    if !forcedTypes.isEmpty { annotations.appendUnchecked("forced_types", .object(forcedTypes)) }
    return annotations
  }
}
