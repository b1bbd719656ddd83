import AnalyticsHub
import Foundation
import SwiftProtobuf

/// Turns a decoded Firebase upload into the `firebase` records the debug log reader makes
/// (``FirebaseLogRecords``), so a plan and Firebase's rules judge both alike:
///
/// - An event is a `logEvent` call by its public name (`_vs` → `screen_view`,
///   ``FirebaseShortNames``) with the app's parameters; the SDK's own (`_o`, `_sc`, `_et`…) are in
///   the output's `sdk_parameters` by their public names (`short_names` maps them back). An event
///   whose origin `_o` is not `app` is the SDK's own: an `automaticEvent` call, recorded, not
///   judged. `screen_view` is a `screen` record named by `_sn`, else `_sc` (the device's screen
///   history follows it), its `screen_name`/`screen_class` the app's parameters.
/// - A user property is an `identify` record (`automaticUserProperty` for the SDK's `_fot`, `_sid`…).
/// - The device is the bundle's app instance id, with its app id, platform and model; the session
///   the event's `_sid`, else the bundle's `_sid` user property; the bundle's context (OS, app
///   version, Firebase app id…) and the place of each record are in its output's annotations.
enum FirebaseUploadRecords {
  /// The annotations every record of `bundle` starts from: its context (``context(_:)``), then the
  /// upload's unknown fields (``note(_:)``), if any. Its records share them
  /// (``Properties/init(extending:)``) instead of each holding a copy.
  static func common(_ bundle: Tagscope_Firebase_Bundle, unknownNote: PropertyValue?) -> Properties {
    common(context: context(bundle), unknownNote: unknownNote)
  }

  /// ``common(_:unknownNote:)`` of a bundle's context already read.
  static func common(context: Properties, unknownNote: PropertyValue?) -> Properties {
    // Keys unique by construction, appended unchecked: a merge per key hashed every key again.
    var common = context
    if let unknownNote { common.appendUnchecked("unknown_fields", unknownNote) }
    return common
  }

  /// The unknown fields as an annotation: their count and the first ``FirebaseUnknownFields/listed``.
  static func note(_ unknown: [String]) -> PropertyValue? {
    guard !unknown.isEmpty else { return nil }
    return .object([
      "count": .int(unknown.count),
      "fields": .array(unknown.prefix(FirebaseUnknownFields.listed).map(PropertyValue.string)),
    ])
  }

  /// The record of `event` of a bundle sent by `identity`, its annotations from `common`, at `place`.
  static func record(
    _ event: Tagscope_Firebase_Event, identity: DeviceIdentity, common: Properties, place: String
  ) -> IngestedEvent {
    record(FirebaseEventFields(event), identity: identity, common: common, place: place)
  }

  /// ``record(_:identity:common:place:)`` of an event's fields.
  static func record(
    _ event: FirebaseEventFields, identity: DeviceIdentity, common: Properties, place: String
  ) -> IngestedEvent {
    record(
      FirebaseEventHeader(event),
      parameters: event.parameterValues,
      identity: identity, common: common, place: place)
  }

  /// What an SDK parameter's short name (`_o`, `_sc`…) stands for in a record, looked up once.
  struct ShortParameter: Sendable {
    /// Its public name among the SDK's parameters (the short name when it has none).
    let publicName: String
    /// Its name among a screen view's own parameters (`screen_name`, `screen_class`), if it is one.
    let screenName: String?
    /// Whether it is the event's origin (`_o`).
    let isOrigin: Bool
    /// Whether it names the event's session (``FirebaseUploadIdentity/sessionParameters``).
    let isSession: Bool
  }

  /// Every short name that stands for something, from the tables it is in: one look-up a parameter.
  static let shortParameters = FirebaseShortNameTable<ShortParameter>(
    {
      var names = Set(FirebaseShortNames.parameters.keys)
      names.formUnion(FirebaseShortNames.screenViewParameters.keys)
      names.formUnion(FirebaseUploadIdentity.sessionParameters)
      names.insert("_o")
      var table: [String: ShortParameter] = [:]
      for name in names {
        table[name] = ShortParameter(
          publicName: FirebaseShortNames.parameters[name] ?? name,
          screenName: FirebaseShortNames.screenViewParameters[name], isOrigin: name == "_o",
          isSession: FirebaseUploadIdentity.sessionParameters.contains(name))
      }
      return table
    }())

  /// The record of an event (`event`, its `parameters` apart) of a bundle sent by `identity`,
  /// its annotations from `common`, at `place`.
  static func record(
    _ event: FirebaseEventHeader, parameters: [FirebaseParameterValue], identity: DeviceIdentity,
    common: Properties, place: String
  ) -> IngestedEvent {
    let name = FirebaseShortNames.event(event.name, short: nil)
    let isScreenView = name == "screen_view"
    // Each kind counted first, so each properties is made once at its size (pairs gathered in
    // arrays first grew them and copied them again: three arrays a record).
    var shortCount = 0
    var screenCount = 0
    for parameter in parameters where parameter.name.utf8.first == UInt8(ascii: "_") {
      shortCount += 1
      if isScreenView, shortParameters[parameter.name]?.screenName != nil { screenCount += 1 }
    }
    var appPairs = FirebaseUniqueProperties(capacity: parameters.count - shortCount + screenCount)
    var sdk = FirebaseUniqueProperties(capacity: shortCount - screenCount)
    var shorts = FirebaseUniqueProperties(capacity: shortCount)
    var origin: String?
    var session: String?
    for parameter in parameters {
      let value = parameter.value
      let short = parameter.name
      guard short.utf8.first == UInt8(ascii: "_") else {
        appPairs.set(short, value)
        continue
      }
      let known = shortParameters[short]
      if known?.isOrigin == true { origin = Payload.string(value) }
      if session == nil, known?.isSession == true { session = Payload.string(value) }
      if isScreenView, let publicName = known?.screenName {
        appPairs.set(publicName, value)
        shorts.set(publicName, .string(short))
      } else {
        let publicName = known?.publicName ?? short
        sdk.set(publicName, value)
        shorts.set(publicName, .string(short))
      }
    }
    let sdkPairs = sdk.properties
    let shortPairs = shorts.properties
    let app = appPairs.properties
    let byApp = origin == nil || origin == "app"
    let shortName = event.name != name
    let previous = event.previousTimestampMillis
    // The bundle's annotations shared, not copied (two dozen pairs a record, freed again with
    // it), with room for this record's own after them.
    var extra = Properties(extending: common)
    // `place` always; the others when present (counted without an array, made per record).
    var added: Int = 1
    if origin != nil { added += 1 }
    if shortName { added += 1 }
    if !sdkPairs.isEmpty { added += 1 }
    if !shortPairs.isEmpty { added += 1 }
    if previous != nil { added += 1 }
    extra.reserveCapacity(common.count + added)
    if let origin { extra.appendUnchecked("origin", .string(origin)) }
    if shortName { extra.appendUnchecked("short_name", .string(event.name)) }
    if !sdkPairs.isEmpty { extra.appendUnchecked("sdk_parameters", .object(sdkPairs)) }
    if !shortPairs.isEmpty { extra.appendUnchecked("short_names", .object(shortPairs)) }
    extra.appendUnchecked("place", .string(place))
    if let previous {
      extra.appendUnchecked("previous_timestamp_millis", .int(Int(previous)))
    }
    var who = identity
    if let session { who.sessionID = DeviceIdentity.present(session) }
    let recordName =
      isScreenView
      ? (Payload.string(app["screen_name"]) ?? Payload.string(app["screen_class"]) ?? name) : name
    return IngestedEvent(
      provider: FirebaseLogRecords.provider, kind: isScreenView ? .screen : .event, name: recordName,
      properties: app, time: time(event.timestampMillis), identity: who,
      call: CallDescription(
        method: byApp ? "logEvent" : FirebaseLogRecords.automaticEvent, name: name, parameters: app),
      raw: "", recordsRaw: false, annotations: extra)
  }

  /// The record of user property `property` of a bundle, as an event's.
  static func record(
    _ property: Tagscope_Firebase_UserProperty, identity: DeviceIdentity, common: Properties, place: String
  ) -> IngestedEvent {
    record(FirebasePropertyFields(property), identity: identity, common: common, place: place)
  }

  /// ``record(_:identity:common:place:)`` of a user property's fields, as read from the wire.
  static func record(
    _ property: FirebasePropertyFields, identity: DeviceIdentity, common: Properties, place: String
  ) -> IngestedEvent {
    let bySDK = property.name.hasPrefix("_")
    let name = FirebaseShortNames.userPropertyTable[property.name] ?? property.name
    // One properties for the record's and its call's (a literal each made two, through the
    // generic initializer).
    var value = Properties()
    value.appendUnchecked("value", property.value)
    var extra = Properties(extending: common)
    extra.reserveCapacity(common.count + (name != property.name ? 3 : 2))
    extra.appendUnchecked("origin", .string(bySDK ? "auto" : "app"))
    if name != property.name { extra.appendUnchecked("short_name", .string(property.name)) }
    extra.appendUnchecked("place", .string(place))
    return IngestedEvent(
      provider: FirebaseLogRecords.provider, kind: .identify, name: name, properties: value,
      time: time(property.setTimestampMillis), identity: identity,
      call: CallDescription(
        method: bySDK ? FirebaseLogRecords.automaticUserProperty : "setUserProperty", name: name,
        parameters: value),
      raw: "", recordsRaw: false, annotations: extra)
  }

  /// A record's place: `prefix` (`bundle 2 event `) and `number`'s digits, made at its size at once
  /// (appending the digits to a copy of the prefix grew the text again, a record at a time).
  static func place(_ prefix: String, _ number: Int) -> String {
    guard number >= 0 else { return prefix + String(number) }
    var digits = 1
    var rest = number / 10
    while rest > 0 {
      digits += 1
      rest /= 10
    }
    var prefix = prefix
    return prefix.withUTF8 { head in
      String(unsafeUninitializedCapacity: head.count + digits) { text in
        _ = text.initialize(fromContentsOf: head)
        var rest = number.magnitude
        for at in stride(from: head.count + digits - 1, through: head.count, by: -1) {
          text[at] = UInt8(ascii: "0") + UInt8(rest % 10)
          rest /= 10
        }
        return head.count + digits
      }
    }
  }

  /// A number a recording can hold: a non-finite one (JSON has none) is kept as its text.
  static func number(_ value: Double) -> PropertyValue {
    value.isFinite ? .double(value) : .string(String(value))
  }

  private static func time(_ millis: Int64?) -> Date? {
    millis.flatMap { Payload.date(seconds: Double($0) / 1000) }
  }

  /// The bundle's device and app context, the fields it carries.
  static func context(_ bundle: Tagscope_Firebase_Bundle) -> Properties {
    var pairs: [(String, PropertyValue)] = []
    func text(_ key: String, _ has: Bool, _ value: String) { if has { pairs.append((key, .string(value))) } }
    func int(_ key: String, _ has: Bool, _ value: Int64) { if has { pairs.append((key, .int(Int(value)))) } }
    func flag(_ key: String, _ has: Bool, _ value: Bool) { if has { pairs.append((key, .bool(value))) } }
    text("app_instance_id", bundle.hasAppInstanceID, bundle.appInstanceID)
    text("platform", bundle.hasPlatform, bundle.platform)
    text("os_version", bundle.hasOsVersion, bundle.osVersion)
    text("device_model", bundle.hasDeviceModel, bundle.deviceModel)
    text("language", bundle.hasUserDefaultLanguage, bundle.userDefaultLanguage)
    int("time_zone_offset_minutes", bundle.hasTimeZoneOffsetMinutes, Int64(bundle.timeZoneOffsetMinutes))
    text("app_id", bundle.hasAppID, bundle.appID)
    text("app_version", bundle.hasAppVersion, bundle.appVersion)
    int("app_version_major", bundle.hasAppVersionMajor, bundle.appVersionMajor)
    text("gmp_app_id", bundle.hasGmpAppID, bundle.gmpAppID)
    int("gmp_version", bundle.hasGmpVersion, bundle.gmpVersion)
    int("uploading_gmp_version", bundle.hasUploadingGmpVersion, bundle.uploadingGmpVersion)
    text("install_source", bundle.hasInstallSource, bundle.installSource)
    text("firebase_instance_id", bundle.hasFirebaseInstanceID, bundle.firebaseInstanceID)
    text("resettable_device_id", bundle.hasResettableDeviceID, bundle.resettableDeviceID)
    text("vendor_device_id", bundle.hasVendorDeviceID, bundle.vendorDeviceID)
    text("consent_state", bundle.hasConsentState, bundle.consentState)
    int("bundle_sequential_index", bundle.hasBundleSequentialIndex, Int64(bundle.bundleSequentialIndex))
    int("upload_timestamp_millis", bundle.hasUploadTimestampMillis, bundle.uploadTimestampMillis)
    int("start_timestamp_millis", bundle.hasStartTimestampMillis, bundle.startTimestampMillis)
    int("end_timestamp_millis", bundle.hasEndTimestampMillis, bundle.endTimestampMillis)
    int(
      "previous_bundle_start_timestamp_millis", bundle.hasPreviousBundleStartTimestampMillis,
      bundle.previousBundleStartTimestampMillis)
    int(
      "previous_bundle_end_timestamp_millis", bundle.hasPreviousBundleEndTimestampMillis,
      bundle.previousBundleEndTimestampMillis)
    int("protocol_version", bundle.hasProtocolVersion, Int64(bundle.protocolVersion))
    // A hash past Int64 is kept as its digits.
    text("dev_cert_hash", bundle.hasDevCertHash, String(bundle.devCertHash))
    flag("limited_ad_tracking", bundle.hasLimitedAdTracking, bundle.limitedAdTracking)
    text("health_monitor_sample", bundle.hasHealthMonitorSample, bundle.healthMonitorSample)
    flag("service_upload", bundle.hasServiceUpload, bundle.serviceUpload)
    int("config_version", bundle.hasConfigVersion, bundle.configVersion)
    int("dynamite_version", bundle.hasDynamiteVersion, bundle.dynamiteVersion)
    int("target_os_version", bundle.hasTargetOsVersion, Int64(bundle.targetOsVersion))
    text("consent_diagnostics", bundle.hasConsentDiagnostics, bundle.consentDiagnostics)
    flag("is_dma_region", bundle.hasIsDmaRegion, bundle.isDmaRegion)
    text("core_platform_services", bundle.hasCorePlatformServices, bundle.corePlatformServices)
    return Properties(pairs)
  }
}
