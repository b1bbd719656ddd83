import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording

/// Mixpanel's ingestion API: `/track`, `/import`, `/engage` (and `/groups`).
///
/// The payload is a form field `data=` holding JSON or base64 JSON (GET or POST), or a JSON body;
/// one message or an array. Replies `{"status":1,"error":null}` with `verbose=1`, else `1`;
/// `/import` replies with `num_records_imported`. Invalid data gets `400` and `status` 0; on
/// `/import`, messages that fail are listed in `failed_records` and the others imported, as
/// Mixpanel does (docs.mixpanel.com/troubleshooting/errors/400-bad-request).
struct MixpanelEndpoint: SDKEndpoint {
  /// Which API the path names.
  enum API: String, Sendable {
    case track
    case importEvents = "import"
    case engage
    case groups
  }

  var api: API

  var provider: String { Vendors.mixpanel.rawValue }
  /// 10 MB for `/import`, 1 MB otherwise.
  var bodyLimit: Int { limit.requestBytes }
  /// The registry's bound on this API's requests.
  var limit: Vendor.Limit { api == .importEvents ? .mixpanelImport : .mixpanelIngest }
  /// Mixpanel's bound on one event or profile update: 1 MB of JSON.
  static let eventBytes = Vendor.Limit.mixpanelIngest.eventBytes ?? .max
  static let maximumEvents = Vendor.Limit.mixpanelIngest.eventsPerRequest ?? .max

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, body: #"{"code":413,"error":"request body too large","status":0}"#,
      rejection: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    var fields = request.query
    let payloadText: String
    if request.method == .POST, request.isJSON {
      payloadText = String(decoding: request.body, as: UTF8.self)
    } else {
      if request.method == .POST {
        guard request.isForm || request.mediaType == nil || request.mediaType == "text/plain" else {
          return fail(
            "Content-Type must be application/x-www-form-urlencoded or application/json", fields,
            .wrongContentType)
        }
        fields += FormDecoding.pairs(String(decoding: request.body, as: UTF8.self))
      }
      guard let data = fields.first(where: { $0.name == "data" })?.value else {
        return fail("data, missing or empty", fields, .invalidPayload)
      }
      payloadText = data
    }
    guard let payload = Self.decodePayload(payloadText) else {
      return fail("data, invalid JSON or base64", fields, .malformedJSON)
    }
    let messages: [PropertyValue]
    if case .array(let list) = payload { messages = list } else { messages = [payload] }
    guard messages.count <= Self.maximumEvents else {
      return fail("too many messages in one request (at most 2000)", fields, .tooManyEvents)
    }
    var events: [IngestedEvent] = []
    // `/import` imports the messages that pass and lists the others in `failed_records` (a 400
    // that is a partial success); the other APIs refuse the request whole.
    var failures: [ImportFailure] = []
    /// Lists `failure` on `/import` (`nil`: go on); elsewhere, the request's refusal.
    func refuse(_ failure: ImportFailure) -> SDKReply? {
      guard api == .importEvents else { return fail(failure.message, fields, failure.reason) }
      failures.append(failure)
      return nil
    }
    for (index, element) in messages.enumerated() {
      guard case .object(let message) = element else {
        if let refusal = refuse(
          ImportFailure(index: index, field: "", message: "data[\(index)] is not an object"))
        {
          return refusal
        }
        continue
      }
      let before = events.count
      switch api {
      case .track, .importEvents:
        guard let name = Payload.string(message["event"]), !name.isEmpty else {
          let failure = ImportFailure(
            index: index, insertID: Self.insertID(message), field: "event",
            message: "data[\(index)], missing event name")
          if let refusal = refuse(failure) { return refusal }
          continue
        }
        var event = Self.trackEvent(message, name: name)
        var account = FieldAccount()
        account.check(
          message, at: "data[\(index)]", understood: Self.trackFields, transport: Self.transport[""])
        account.noteUnlessObject(message["properties"], at: "data[\(index)].properties")
        let properties = Payload.object(message["properties"])
        account.noteUnreadableIdentity(Self.trackReader, at: "data[\(index)]") {
          $0 == "properties" ? .object(properties) : message[$0]
        }
        account.add(to: &event)
        events.append(event)
      case .engage, .groups:
        events.append(contentsOf: Self.profileEvents(message, api: api))
      }
      if let event = events[before...].first(where: { $0.raw.utf8.count > Self.eventBytes }) {
        let failure = ImportFailure(
          index: index, insertID: Self.insertID(message), field: "",
          message: "data[\(index)], event is \(event.raw.utf8.count) bytes of JSON, more than "
            + "\(Self.eventBytes)",
          reason: .bodyTooLarge)
        if let refusal = refuse(failure) { return refusal }
        events.removeSubrange(before...)
      }
    }
    // The request's own fields (query and form) besides `data` and `verbose`: reported on its
    // first record unless Mixpanel's transport.
    var account = FieldAccount()
    account.check(
      pairs: fields, at: "", understood: Self.requestFields.contains, transport: Self.transport[""])
    account.add(to: &events)
    if !failures.isEmpty { return importFailed(failures, imported: events) }
    let verbose = fields.contains { $0.name == "verbose" && $0.value == "1" }
    let body: String
    if api == .importEvents {
      body = JSONText.string(["code": 200, "num_records_imported": .int(events.count), "status": 1])
    } else {
      body = verbose ? #"{"status":1,"error":null}"# : "1"
    }
    return SDKReply(
      status: .ok, contentType: verbose || api == .importEvents ? "application/json" : "text/plain",
      body: body,
      events: events)
  }

  private func fail(_ message: String, _ fields: [(name: String, value: String)], _ reason: RejectionReason)
    -> SDKReply
  {
    let verbose = fields.contains { $0.name == "verbose" && $0.value == "1" } || api == .importEvents
    let body =
      verbose ? JSONText.string(["status": 0, "error": .string(message)]) : "0"
    return SDKReply(
      status: .badRequest, contentType: verbose ? "application/json" : "text/plain", body: body,
      rejection: reason)
  }

  /// One `/import` message that failed validation, as `failed_records` lists it.
  private struct ImportFailure {
    var index: Int
    var insertID: PropertyValue = .null
    var field: String
    var message: String
    var reason: RejectionReason = .invalidPayload
  }

  /// The message's `properties.$insert_id`, how Mixpanel names a failed record.
  private static func insertID(_ message: Properties) -> PropertyValue {
    Payload.object(message["properties"])["$insert_id"] ?? .null
  }

  /// `/import`'s `400` when messages failed: each one in `failed_records`, the others imported
  /// (counted in `num_records_imported` and recorded), the request counted under the first
  /// failure's reason.
  private func importFailed(_ failures: [ImportFailure], imported: [IngestedEvent]) -> SDKReply {
    let failed: [PropertyValue] = failures.map { failure in
      .object([
        "index": .int(failure.index), "insert_id": failure.insertID, "field": .string(failure.field),
        "message": .string(failure.message),
      ])
    }
    let body: Properties = [
      "code": 400, "error": "some data points in the request failed validation",
      "failed_records": .array(failed), "num_records_imported": .int(imported.count), "status": "Bad Request",
    ]
    return SDKReply(
      status: .badRequest, body: JSONText.string(body), events: imported, rejection: failures[0].reason)
  }

  /// Mixpanel's transport fields (``Vendor/TransportFields/mixpanel``), of each message.
  static let transport = TransportLevels(Vendor.mixpanel, levels: [""])
  /// The fields of a request's query and form the decoder reads: the messages and the answer's form.
  static let requestFields: Set<String> = ["data", "verbose"]
  /// The fields of a tracked message the decoder carries: its name and properties.
  static let trackFields: Set<String> = ["event", "properties"]

  /// `data` as JSON, or as base64 of JSON.
  static func decodePayload(_ text: String) -> PropertyValue? {
    if let value = try? JSONParser.parse(text) { return value }
    guard let bytes = Base64.decode(text) else { return nil }
    return try? JSONParser.parse(bytes)
  }

  static func trackEvent(_ message: Properties, name: String) -> IngestedEvent {
    var properties = Payload.object(message["properties"])
    var credentials = Properties()
    if let token = properties["token"] {
      credentials["token"] = token
      properties["token"] = nil
    }
    let kind: TagKind
    var displayName = name
    switch name {
    case "$identify": kind = .identify
    case "$mp_web_page_view", "$pageview", "mp_page_view":
      // mixpanel/mixpanel-js `track_pageview` (src/mixpanel-core.js) sends `$mp_web_page_view`
      // with `current_page_title` and `current_url_path` (src/utils.js `mpPageViewProperties`);
      // older mixpanel-js sent `mp_page_view` with `mp_page`.
      kind = .screen
      displayName =
        Payload.string(properties["current_page_title"]).flatMap(DeviceIdentity.present)
        ?? Payload.string(properties["current_url_path"]) ?? Payload.string(properties["mp_page"]) ?? name
    case "$screen":
      // No Mixpanel SDK sends `$screen` itself: apps track it by hand, naming the screen as other
      // SDKs do (`$screen_name`, `screen_name`) or not at all.
      kind = .screen
      displayName =
        Payload.string(properties["$screen_name"]) ?? Payload.string(properties["screen_name"]) ?? name
    default: kind = .event
    }
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      properties["time"], .secondsOrMilliseconds, field: "properties.time",
      provider: Vendors.mixpanel.rawValue, violations: &violations)
    return IngestedEvent(
      provider: Vendors.mixpanel.rawValue, kind: kind, name: kind == .identify ? "identify" : displayName,
      properties: properties, time: time, identity: trackIdentity(message, properties: properties),
      // The call as Mixpanel's SDK makes it: `track(event:properties:)`; the full message stays in
      // `raw` when it holds more than the event's name and properties (with the token, a credential).
      call: CallDescription(method: "track", name: name, parameters: properties), violations: violations,
      raw: JSONText.string(message),
      recordsRaw: !message.keys.allSatisfy { $0 == "event" || $0 == "properties" },
      credentials: credentials, messageID: Payload.string(properties["$insert_id"]))
  }

  /// The operations of a profile message (Mixpanel's Engage API reference).
  static let profileOperations: Set<String> = [
    "$set", "$set_once", "$add", "$union", "$append", "$remove", "$unset", "$delete",
  ]
  /// The other fields of a profile message: whose profile, when, from where (mixpanel-python's
  /// `people_update` and `group_update` with their `meta`; mixpanel-android's people messages).
  static let profileFields: Set<String> = [
    "$token", "$distinct_id", "$time", "$ip", "$ignore_time", "$ignore_alias", "$group_key", "$group_id",
    "$device_id", "$user_id", "$had_persisted_distinct_id", "$mp_metadata",
  ]

  /// One event per profile operation (`$set`, `$set_once`, `$add`, …) of an `/engage` message;
  /// its fields that are neither are reported on them, and a message with no operation is
  /// recorded as itself, with the violation that it changes nothing.
  static func profileEvents(_ message: Properties, api: API) -> [IngestedEvent] {
    let operations = message.filter { profileOperations.contains($0.key) }
    var account = FieldAccount()
    account.check(message, at: "", understood: profileOperations, transport: profileFields)
    account.noteUnreadableIdentity(profileReader) { message[$0] }
    let identity = api == .engage ? profileIdentity(message) : DeviceIdentity()
    var violations: [RuleViolation] = []
    let time = SentTime.read(
      message["$time"], .secondsOrMilliseconds, field: "$time", provider: Vendors.mixpanel.rawValue,
      violations: &violations)
    var credentials = Properties()
    if let token = message["$token"] { credentials["token"] = token }
    let raw = JSONText.string(message)
    let method = api == .engage ? "engage" : "groups"
    var list = Array(operations)
    if operations.isEmpty {
      list = [(key: method, value: PropertyValue.object([:]))]
      violations.append(
        .vendor(
          Vendors.mixpanel.rawValue, "no-operation",
          "The profile message holds no operation (\(profileOperations.sorted().joined(separator: ", "))): "
            + "Mixpanel changes nothing.", consequence: .dropped))
    }
    var events = list.map { operation in
      let properties: Properties
      switch operation.value {
      case .object(let values): properties = values
      case .array(let names): properties = ["keys": .array(names)]
      default: properties = ["value": operation.value]
      }
      return IngestedEvent(
        provider: Vendors.mixpanel.rawValue, kind: .identify, name: operation.key, properties: properties,
        time: time,
        identity: identity,
        call: CallDescription(method: method, name: operation.key, parameters: message),
        violations: violations, raw: raw, recordsRaw: false, credentials: credentials)
    }
    account.add(to: &events)
    return events
  }
}
