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

  /// ``common(_:unknownNote:)`` of a bundle's context already read (taken: held only here, the
  /// note joins its pairs in place).
  static func common(context: consuming Properties, unknownNote: PropertyValue?) -> Properties {
    // Keys unique by construction, appended unchecked: a merge per key hashed every key again.
    if let unknownNote { context.appendUnchecked("unknown_fields", unknownNote) }
    return context
  }

  /// The place of ``request(context:unknownNote:bundles:)``'s record: the upload itself.
  static let requestPlace = "upload"

  /// The record of an upload that is not empty but holds no event and no user property (fields
  /// the schema lacks, bundles of context alone): the request itself, as a GA4 request without
  /// events is recorded, with the first bundle's `context` (and who it names) and how many bundles
  /// it held, so that what it held is not dropped without a word.
  static func request(context: Properties, unknownNote: PropertyValue?, bundles: Int) -> IngestedEvent {
    // (Its place, `upload`, is no message's: `tagscope export --har` says it does not rebuild it.)
    let identity = FirebaseUploadIdentity.of(context: context, userProperties: [FirebasePropertyFields]())
    var annotations = common(context: context, unknownNote: unknownNote)
    annotations.appendUnchecked("bundles", .int(bundles))
    annotations.appendUnchecked("place", .string(requestPlace))
    return IngestedEvent(
      provider: FirebaseLogRecords.provider, kind: .event, name: "request", properties: [:], time: nil,
      identity: identity, call: CallDescription(method: "request", name: nil, parameters: [:]),
      violations: [], raw: "", recordsRaw: false, annotations: annotations)
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
    var parameters = event.parameterValues
    return record(
      FirebaseEventHeader(event), parameters: &parameters, identity: identity, common: common, place: place)
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

  /// Every short name that stands for something, from the tables it is in.
  static let shortParameterList: [String: ShortParameter] = {
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
  }()

  /// What an upload's records look names up in, made once, all together: one initialization checked
  /// a record, not one a table (each check a call).
  struct Tables: Sendable {
    /// ``shortParameterList`` as a table: one look-up a parameter.
    let parameters = FirebaseShortNameTable<ShortParameter>(shortParameterList)
    /// ``FirebaseShortNames/events`` and ``FirebaseShortNames/userProperties`` as tables.
    let events = FirebaseShortNames.eventTable
    let userProperties = FirebaseShortNameTable(FirebaseShortNames.userProperties)
    /// Every short name the tables know, as its own text: what a wire walk takes for a name it
    /// finds here instead of making the text again.
    let names: FirebaseShortNameTable<String> = {
      var names = Set(shortParameterList.keys)
      names.formUnion(FirebaseShortNames.events.keys)
      names.formUnion(FirebaseShortNames.userProperties.keys)
      return FirebaseShortNameTable(Dictionary(uniqueKeysWithValues: names.map { ($0, $0) }))
    }()
    /// Whether two SDK parameters with different short names always stand for different names in
    /// a record, among its SDK parameters and in its `short_names`: no two short names share a
    /// public name (or a screen view's name), and none stands for a name starting with `_` but
    /// its own (which another short name, one the tables lack, could be). The records of an event
    /// whose names are distinct then append each pair as it comes.
    let shortNamesStayDistinct: Bool = {
      func injective(_ target: (ShortParameter) -> String) -> Bool {
        var seen = Set<String>()
        for (name, parameter) in shortParameterList {
          let key = target(parameter)
          guard key == name || key.utf8.first != UInt8(ascii: "_"), seen.insert(key).inserted else {
            return false
          }
        }
        return true
      }
      return injective { $0.publicName } && injective { $0.screenName ?? $0.publicName }
    }()

    /// The public name of event `name` (packed as `word`): its short name's, else its own.
    func event(_ name: String, word: UInt64) -> String {
      events[word: word, name: name] ?? name
    }
  }

  static let tables = Tables()

  /// The record of an event (`event`, its `parameters` apart) of a bundle sent by `identity`,
  /// its annotations from `common`, at `place`; its `short_names` the one made for an event
  /// before it with the same SDK parameters (``FirebaseShortNamesCache``). The names and values
  /// of `parameters` are moved into the record, not copied: it is left empty, its room kept.
  static func record(
    _ event: FirebaseEventHeader, parameters: inout [FirebaseParameterValue], identity: DeviceIdentity,
    common: Properties, place: String
  ) -> IngestedEvent {
    let tables = Self.tables
    let table = tables.parameters
    let name =
      event.name.utf8.first == UInt8(ascii: "_") ? tables.event(event.name, word: event.word) : event.name
    let isScreenView = name == "screen_view"
    // Each kind counted first, so each properties is made once at its size (pairs gathered in
    // arrays first grew them and copied them again: three arrays a record).
    var shortCount = 0
    var screenCount = 0
    for parameter in parameters where parameter.isShort {
      shortCount += 1
      if isScreenView, table[word: parameter.word, name: parameter.name]?.screenName != nil {
        screenCount += 1
      }
    }
    // No name twice (the rule): each pair appended as it comes, none looked for first; a screen
    // view's own names (`screen_name`…) may be an app parameter's too.
    let distinct = FirebaseParameterValue.namesAreDistinct(parameters)
    let sdkChecked = !distinct || !tables.shortNamesStayDistinct
    // Not a conditional expression: `nil` there is a `PropertyValue` literal (`.null`), not none.
    var shortPairs: PropertyValue?
    if shortCount > 0 {
      shortPairs = FirebaseShortNamesCache.value(
        parameters, shortCount: shortCount, isScreenView: isScreenView
      ) {
        var shorts = FirebaseUniqueProperties(capacity: shortCount, checked: sdkChecked)
        for parameter in parameters where parameter.isShort {
          let known = table[word: parameter.word, name: parameter.name]
          let screenName = isScreenView ? known?.screenName : nil
          shorts.set(screenName ?? known?.publicName ?? parameter.name, .string(parameter.name))
        }
        return .object(shorts.properties)
      }
    }
    var appPairs = FirebaseUniqueProperties(
      capacity: parameters.count - shortCount + screenCount, checked: !distinct || screenCount > 0)
    var sdk = FirebaseUniqueProperties(capacity: shortCount - screenCount, checked: sdkChecked)
    var origin: String?
    var session: String?
    for index in parameters.indices {
      // Moved out (the array's copy let go after would only have been released again).
      var parameter = FirebaseParameterValue.taken
      swap(&parameter, &parameters[index])
      guard parameter.isShort else {
        appPairs.set(parameter.name, parameter.value)
        continue
      }
      let known = table[word: parameter.word, name: parameter.name]
      if known?.isOrigin == true { origin = Payload.string(parameter.value) }
      if session == nil, known?.isSession == true { session = Payload.string(parameter.value) }
      if isScreenView, let publicName = known?.screenName {
        appPairs.set(publicName, parameter.value)
      } else {
        sdk.set(known?.publicName ?? parameter.name, parameter.value)
      }
    }
    parameters.removeAll(keepingCapacity: true)
    let sdkPairs = sdk.properties
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
    if shortPairs != nil { added += 1 }
    if previous != nil { added += 1 }
    extra.reserveCapacity(common.count + added)
    if let origin { extra.appendUnchecked("origin", .string(origin)) }
    if shortName { extra.appendUnchecked("short_name", .string(event.name)) }
    if !sdkPairs.isEmpty { extra.appendUnchecked("sdk_parameters", .object(sdkPairs)) }
    if let shortPairs { extra.appendUnchecked("short_names", shortPairs) }
    extra.appendUnchecked("place", .string(place))
    if let previous {
      extra.appendUnchecked("previous_timestamp_millis", .int(Int(previous)))
    }
    var who = identity
    if let session { who.sessionID = DeviceIdentity.present(session) }
    let sent = time(event.timestampMillis)
    let recordName =
      isScreenView
      ? (Payload.string(app["screen_name"]) ?? Payload.string(app["screen_class"]) ?? name) : name
    return IngestedEvent(
      provider: FirebaseLogRecords.provider, kind: isScreenView ? .screen : .event, name: recordName,
      properties: app, time: sent, identity: who,
      call: CallDescription(
        method: byApp ? "logEvent" : FirebaseLogRecords.automaticEvent, name: name, parameters: app),
      violations: timeViolations(event.timestampMillis, read: sent, field: "timestamp_millis"),
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
    let tables = Self.tables
    let bySDK =
      property.word != 0
      ? property.word & 0xFF == UInt64(UInt8(ascii: "_")) : property.name.hasPrefix("_")
    let name = tables.userProperties[word: property.word, name: property.name] ?? property.name
    // One properties for the record's and its call's (a literal each made two, through the
    // generic initializer).
    var value = Properties()
    value.appendUnchecked("value", property.value)
    let sent = time(property.setTimestampMillis)
    var extra = Properties(extending: common)
    extra.reserveCapacity(common.count + (name != property.name ? 3 : 2))
    extra.appendUnchecked("origin", .string(bySDK ? "auto" : "app"))
    if name != property.name { extra.appendUnchecked("short_name", .string(property.name)) }
    extra.appendUnchecked("place", .string(place))
    return IngestedEvent(
      provider: FirebaseLogRecords.provider, kind: .identify, name: name, properties: value,
      time: sent, identity: identity,
      call: CallDescription(
        method: bySDK ? FirebaseLogRecords.automaticUserProperty : "setUserProperty", name: name,
        parameters: value),
      violations: timeViolations(property.setTimestampMillis, read: sent, field: "set_timestamp_millis"),
      raw: "", recordsRaw: false, annotations: extra)
  }

  /// A number a recording can hold: a non-finite one (JSON has none) is kept as its text.
  static func number(_ value: Double) -> PropertyValue {
    value.isFinite ? .double(value) : .string(String(value))
  }

  private static func time(_ millis: Int64?) -> Date? {
    millis.flatMap { Payload.date(seconds: Double($0) / 1000) }
  }

  /// The violation of a time sent in `field` (`millis`, `read` as ``time(_:)`` reads it) that is
  /// none (``SentTime``): the record then has the time it was received. No array is made for a
  /// time that reads.
  private static func timeViolations(_ millis: Int64?, read: Date?, field: String) -> [RuleViolation] {
    guard let millis, read == nil else { return [] }
    return [
      SentTime.unread(.int(Int(millis)), .milliseconds, field: field, provider: FirebaseLogRecords.provider)
    ]
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
