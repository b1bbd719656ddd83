import AnalyticsHub
import AnalyticsProviders

/// Turns what the Firebase debug log says into the events `listen` records, provider `firebase`,
/// as the hub records an app's own Firebase calls, so plans and Firebase's rules judge them alike.
///
/// - An event the app logged (origin `app`, or none printed) is a `logEvent` call named by its
///   public name, with the app's parameters: those printed without an SDK short name, and for
///   `screen_view` the screen the app gave (`_sn` as `screen_name`, `_sc` as `screen_class`). The
///   parameters the SDK adds itself (`_o`, `_si`, `_et`…) are kept beside the call, in the output's
///   `sdk_parameters` (with every short name in `short_names`), not in it: Firebase reserves their
///   names to itself, and the rules judge what the app asked for.
/// - An event the SDK logged by itself (origin `auto`, or another SDK's such as `fcm`) is an
///   `automaticEvent` call: recorded, with the same parameters, but not judged by the rules for
///   app calls (`session_start`, `user_engagement` are names reserved for it).
/// - `screen_view` is a `screen` record named by its screen; other events `event` records.
/// - A user property is an `identify` record named by the property, `{"value": …}` (null when
///   removed), a `setUserProperty` call, or `automaticUserProperty` for the SDK's own (printed with
///   an underscore short name: `ga_session_id (_sid)`, `first_open_time (_fot)`).
/// - The output's `origin` is the origin printed, so QA can filter (`call:automaticEvent`).
enum FirebaseLogRecords {
  // Computed, not stored: a stored static is a one-time initialization checked on every read,
  // and an upload's records read these once each.
  static var provider: String { Vendors.firebase.rawValue }
  /// The call method of an event the SDK logged by itself.
  static var automaticEvent: String { "automaticEvent" }
  /// The call method of a user property the SDK set itself.
  static var automaticUserProperty: String { "automaticUserProperty" }

  /// The event `entry` is, from the input named `input` (the file or `stdin`); `place`, where
  /// the entry ends in a file, is kept in the output's `log_position` (``RecordedLogs``).
  static func ingested(_ entry: FirebaseLogEntry, input: String, place: RecordedLogs.Place? = nil)
    -> IngestedEvent
  {
    var event: IngestedEvent
    switch entry {
    case .event(let logged): event = ingested(logged, input: input)
    case .userProperty(let property): event = ingested(property, input: input)
    }
    if let place { event.annotations.merge([(RecordedLogs.key, place.value)]) }
    return event
  }

  private static func ingested(_ event: FirebaseLoggedEvent, input: String) -> IngestedEvent {
    let name = FirebaseShortNames.event(event.name, short: event.shortName)
    let isScreenView = name == "screen_view"
    // Gathered, then made properties at once: one merge per parameter looked every key up again.
    var appPairs: [(String, PropertyValue)] = []
    var sdkPairs: [(String, PropertyValue)] = []
    var shortPairs: [(String, PropertyValue)] = []
    for parameter in event.parameters {
      if let short = parameter.shortName {
        shortPairs.append((parameter.name, .string(short)))
        if isScreenView, let publicName = FirebaseShortNames.screenViewParameters[short] {
          appPairs.append((publicName, parameter.value))
        } else {
          sdkPairs.append((parameter.name, parameter.value))
        }
      } else {
        appPairs.append((parameter.name, parameter.value))
      }
    }
    let app = properties(appPairs)
    let sdk = properties(sdkPairs)
    let shortNames = properties(shortPairs)
    let byApp = event.origin == nil || event.origin == "app"
    let kind: TagKind = isScreenView ? .screen : .event
    let recordName =
      isScreenView
      ? (Payload.string(app["screen_name"]) ?? Payload.string(app["screen_class"]) ?? name) : name
    var extra: Properties = ["platform": .string(event.source.platform.rawValue)]
    if let origin = event.origin { extra.merge([("origin", .string(origin))]) }
    if let short = event.shortName { extra.merge([("short_name", .string(short))]) }
    if !sdk.isEmpty { extra.merge([("sdk_parameters", .object(sdk))]) }
    if !shortNames.isEmpty { extra.merge([("short_names", .object(shortNames))]) }
    extra.merge([("line", .int(event.source.line))])
    let session = event.parameters.first { $0.shortName == "_sid" || $0.name == "ga_session_id" }
    return IngestedEvent(
      provider: provider, kind: kind, name: recordName, properties: app, time: event.source.time,
      identity: identity(event.source, input: input, session: session.flatMap { Payload.string($0.value) }),
      call: CallDescription(method: byApp ? "logEvent" : automaticEvent, name: name, parameters: app),
      raw: event.raw, annotations: extra)
  }

  private static func ingested(_ property: FirebaseLoggedUserProperty, input: String) -> IngestedEvent {
    let bySDK = property.shortName != nil || property.name.hasPrefix("_")
    let value = property.value ?? .null
    var extra: Properties = [
      "platform": .string(property.source.platform.rawValue), "origin": .string(bySDK ? "auto" : "app"),
    ]
    if let short = property.shortName { extra.merge([("short_name", .string(short))]) }
    extra.merge([("line", .int(property.source.line))])
    return IngestedEvent(
      provider: provider, kind: .identify, name: property.name, properties: ["value": value],
      time: property.source.time,
      identity: identity(property.source, input: input, session: nil),
      call: CallDescription(
        method: bySDK ? automaticUserProperty : "setUserProperty", name: property.name,
        parameters: ["value": value]),
      raw: property.raw, annotations: extra)
  }

  /// `pairs` as properties, as `Properties(pairs)` makes them (a repeated name keeps its first
  /// place and takes its last value), with this module's concrete types: the generic initializer
  /// copies each pair through value witnesses, a twentieth of reading a 100k-parameter entry.
  static func properties(_ pairs: [(String, PropertyValue)]) -> Properties {
    guard pairs.count > 12 else { return Properties(pairs) }
    var properties = FirebaseUniqueProperties(capacity: pairs.count)
    for (name, value) in pairs { properties.set(name, value) }
    return properties.properties
  }

  /// The device: the log's input, the process the line names, the platform.
  private static func identity(_ source: FirebaseLogOrigin, input: String, session: String?) -> DeviceIdentity
  {
    DeviceIdentity(
      deviceID: input, app: source.process, platform: source.platform.rawValue, sessionID: session)
  }
}
