import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording

/// Amplitude's HTTP V2 API (`/2/httpapi`) and Batch Event Upload API (`/batch`).
///
/// Replies carry `code` (which the official SDKs read): `200` with `events_ingested`, `400` with
/// `missing_field`, `events_with_missing_fields` or `events_with_invalid_id_lengths`, `413` over
/// 1 MB or 2,000 events (20 MB for `/batch`). A rejected request records nothing, as at Amplitude.
struct AmplitudeEndpoint: SDKEndpoint {
  /// `true` for `/batch` (20 MB), `false` for `/2/httpapi` (1 MB).
  var isBatchAPI: Bool

  var provider: String { Vendors.amplitude.rawValue }
  var bodyLimit: Int { limit.requestBytes }
  /// The registry's bound on this API's requests.
  var limit: Vendor.Limit { isBatchAPI ? .amplitudeBatch : .amplitudeHTTP }
  /// The fields of a request the decoder carries: its events and API key.
  static let requestFields: Set<String> = ["api_key", "events"]
  /// Amplitude's transport fields (``Vendor/TransportFields/amplitude``).
  static let transport = TransportLevels(Vendor.amplitude, levels: [""])
  /// An event's fields that hold its properties, each an object.
  static let propertyObjects = ["event_properties", "user_properties", "group_properties"]
  /// The most events one request takes (the same on both APIs).
  static let maximumEvents = Vendor.Limit.amplitudeHTTP.eventsPerRequest ?? .max

  func replyTooLarge() -> SDKReply {
    Self.reply(.payloadTooLarge, ["code": 413, "error": "Payload too large"], reason: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    guard request.isJSON else {
      return Self.reply(
        .badRequest, ["code": 400, "error": "Content-Type must be application/json"],
        reason: .wrongContentType)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return Self.reply(
        .badRequest, ["code": 400, "error": "Invalid JSON request body"], reason: .malformedJSON)
    }
    guard case .object(let object) = body else {
      return Self.reply(
        .badRequest, ["code": 400, "error": "Invalid JSON request body"], reason: .malformedJSON)
    }
    guard let apiKey = Payload.text(object["api_key"]), !apiKey.isEmpty else {
      return Self.missingField("api_key")
    }
    guard let events = Payload.array(object["events"]) else { return Self.missingField("events") }
    guard events.count <= Self.maximumEvents else {
      return Self.reply(
        .payloadTooLarge, ["code": 413, "error": "Too many events in request (at most 2000)"],
        reason: .tooManyEvents)
    }
    // The request's own fields not understood: its options too, when they are not what the API
    // reads (an object; a whole number of characters), which it otherwise took as the defaults.
    var own = FieldAccount()
    own.noteUnlessObject(object["options"], at: "options")
    let minimum = Payload.object(object["options"])["min_id_length"]
    if let minimum, minimum != .null, minimum.intValue == nil { own.note("options.min_id_length", minimum) }
    let minimumIdLength = minimum?.intValue ?? 5
    var missingEventType: [PropertyValue] = []
    var missingIds: [PropertyValue] = []
    var shortUserIds: [PropertyValue] = []
    var shortDeviceIds: [PropertyValue] = []
    var accepted: [IngestedEvent] = []
    for (index, element) in events.enumerated() {
      let event = Payload.object(element)
      let eventType = Payload.string(event["event_type"]) ?? ""
      if eventType.isEmpty { missingEventType.append(.int(index)) }
      let userId = Payload.string(event["user_id"])
      let deviceId = Payload.string(event["device_id"])
      if (userId ?? "").isEmpty && (deviceId ?? "").isEmpty { missingIds.append(.int(index)) }
      if let userId, !userId.isEmpty, userId.count < minimumIdLength { shortUserIds.append(.int(index)) }
      if let deviceId, !deviceId.isEmpty, deviceId.count < minimumIdLength {
        shortDeviceIds.append(.int(index))
      }
      var record = Self.event(from: event, apiKey: apiKey)
      // Properties that are no object are none to the record: said, not emptied without a word.
      var account = FieldAccount()
      for key in Self.propertyObjects { account.noteUnlessObject(event[key], at: "events[\(index)].\(key)") }
      account.noteUnreadableIdentity(Self.identityReader, at: "events[\(index)]") { event[$0] }
      account.add(to: &record)
      accepted.append(record)
    }
    if !missingEventType.isEmpty || !missingIds.isEmpty {
      var fields = Properties()
      if !missingEventType.isEmpty { fields["event_type"] = .array(missingEventType) }
      if !missingIds.isEmpty { fields["user_id or device_id"] = .array(missingIds) }
      return Self.reply(
        .badRequest,
        [
          "code": 400, "error": "Request missing required field",
          "events_with_missing_fields": .object(fields),
        ],
        reason: .invalidPayload)
    }
    if !shortUserIds.isEmpty || !shortDeviceIds.isEmpty {
      var fields = Properties()
      if !shortUserIds.isEmpty { fields["user_id"] = .array(shortUserIds) }
      if !shortDeviceIds.isEmpty { fields["device_id"] = .array(shortDeviceIds) }
      return Self.reply(
        .badRequest,
        [
          "code": 400, "error": "Invalid id length for user_id or device_id",
          "events_with_invalid_id_lengths": .object(fields),
        ],
        reason: .invalidPayload)
    }
    own.check(object, at: "", understood: Self.requestFields, transport: Self.transport[""])
    own.add(to: &accepted)
    let now = Int(Date().timeIntervalSince1970 * 1000)
    let reply: Properties = [
      "code": 200, "events_ingested": .int(accepted.count), "payload_size_bytes": .int(request.body.count),
      "server_upload_time": .int(now),
    ]
    return SDKReply(status: .ok, body: JSONText.string(reply), events: accepted)
  }

  /// One Amplitude event as an ingested event.
  static func event(from event: Properties, apiKey: String) -> IngestedEvent {
    let eventType = Payload.string(event["event_type"]) ?? ""
    let kind: TagKind
    let name: String
    let properties: Properties
    switch eventType {
    case "$identify", "$groupidentify":
      kind = .identify
      name = eventType == "$identify" ? "identify" : "groupIdentify"
      properties = Payload.object(event[eventType == "$identify" ? "user_properties" : "group_properties"])
    case "[Amplitude] Screen Viewed", "[Amplitude] Page Viewed":
      kind = .screen
      let eventProperties = Payload.object(event["event_properties"])
      name =
        Payload.string(eventProperties["[Amplitude] Screen Name"])
        ?? Payload.string(eventProperties["screen_name"])
        ?? Payload.string(eventProperties["[Amplitude] Page Title"]).flatMap(DeviceIdentity.present)
        // amplitude/Amplitude-TypeScript `plugin-page-view-tracking-browser/src/page-view-tracking.ts`
        // sends the title, path, URL and location; a page without a title is named by its path.
        ?? Payload.string(eventProperties["[Amplitude] Page Path"]) ?? eventType
      properties = eventProperties
    default:
      kind = .event
      name = eventType
      properties = Payload.object(event["event_properties"])
    }
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      event["time"], .milliseconds, field: "time", provider: Vendors.amplitude.rawValue,
      violations: &violations)
    return IngestedEvent(
      provider: Vendors.amplitude.rawValue, kind: kind, name: name, properties: properties, time: time,
      identity: identity(event),
      call: Self.call(eventType: eventType, event: event), violations: violations,
      raw: JSONText.string(event),
      recordsRaw: false, credentials: ["api_key": .string(apiKey)],
      messageID: Payload.string(event["insert_id"]))
  }

  static func missingField(_ field: String) -> SDKReply {
    reply(
      .badRequest, ["code": 400, "error": "Request missing required field", "missing_field": .string(field)],
      reason: .invalidPayload)
  }

  static func reply(_ status: HTTPResponseStatus, _ body: Properties, reason: RejectionReason) -> SDKReply {
    SDKReply(status: status, body: JSONText.string(body), rejection: reason)
  }

  /// The SDK call an uploaded event stands for: `$identify`/`$groupidentify` events are what the
  /// SDK's `identify`/`groupIdentify` send; every other event is a `track`.
  static func call(eventType: String, event: Properties) -> CallDescription {
    switch eventType {
    case "$identify":
      return CallDescription(method: "identify", name: nil, parameters: event)
    case "$groupidentify":
      return CallDescription(method: "groupIdentify", name: nil, parameters: event)
    default:
      return CallDescription(method: "track", name: eventType, parameters: event)
    }
  }
}
