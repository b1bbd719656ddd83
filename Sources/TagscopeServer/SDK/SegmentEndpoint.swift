import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import TagscopeRecording

/// Segment's HTTP Tracking API (`/v1/batch`, `/v1/track`, … and the single-letter `/v1/b`, `/v1/t`,
/// `/v1/p`, `/v1/i`, `/v1/g`, `/v1/a`, `/v1/s` of analytics.js and analytics-swift/-kotlin), which
/// RudderStack's SDKs speak too.
///
/// Answers `200 {"success":true}`, or `400` with `code` and `message` (what the official SDKs read)
/// for malformed JSON, a wrong content type, a call or batched event over 32 KB or a batch over
/// 500 KB (4 MB for RudderStack's); a batch of more than 2,500 events (Segment's) is answered
/// `200` and not recorded, as Segment drops it (the registry's `Vendor.Limit.segmentBatch`). A message the real service would silently drop (no event name, no user id)
/// is recorded with a violation.
struct SegmentEndpoint: SDKEndpoint {
  /// The message type the path implies (`track` for `/v1/track`), or `nil` for `/v1/batch`.
  var impliedType: String?

  var provider: String { Vendors.segment.rawValue }
  /// 32 KB per single call; 4 MB per batch, RudderStack's, whose SDKs share the batch paths
  /// (Segment's 500 KB is checked once the batch is read: ``batchLimit``).
  var bodyLimit: Int { impliedType == nil ? Self.rudderStackBatchLimit : Self.messageLimit }

  /// Segment's bound on a batch request.
  static let batchLimit = Vendor.Limit.segmentBatch.requestBytes
  /// RudderStack's bound on a batch request.
  static let rudderStackBatchLimit = Vendor.Limit.rudderStackBatch.requestBytes
  /// Segment's bound on a single call, and on each call of a batch.
  static let messageLimit = Vendor.Limit.segmentMessage.requestBytes
  /// The fields of a batch request the decoder carries: its messages and its write key.
  static let batchFields: Set<String> = ["batch", "writeKey"]
  /// Segment's transport fields (``Vendor/TransportFields/segment``).
  static let transport = TransportLevels(Vendor.segment, levels: [""])

  /// Segment's bound on the events of one batch request, past which it answers `200` and drops them.
  static let batchEvents = Vendor.Limit.segmentBatch.eventsPerRequest ?? .max

  func replyTooLarge() -> SDKReply {
    let limit = impliedType == nil ? "500KB per batch" : "32KB per call"
    return Self.error(
      "request_too_large", "Request exceeds the maximum size of \(limit)", reason: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    // analytics.js posts its JSON as `text/plain` (no CORS preflight), as does RudderStack's beacon.
    guard request.isJSON || request.mediaType == "text/plain" else {
      return Self.error(
        "invalid_request", "Content-Type must be application/json or text/plain", reason: .wrongContentType)
    }
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return Self.error("invalid_request", "Invalid JSON: \(error)", reason: .malformedJSON)
    }
    guard case .object(let object) = body else {
      return Self.error("invalid_request", "The body must be a JSON object", reason: .invalidPayload)
    }
    let writeKey = Self.basicAuthUser(request.headers) ?? Payload.text(object["writeKey"])
    let messages: [Properties]
    let rawTexts: [String]
    var account = FieldAccount()
    if let impliedType {
      var message = object
      if message["type"] == nil { message["type"] = .string(impliedType) }
      message["writeKey"] = nil
      messages = [message]
      rawTexts = [String(decoding: request.body, as: UTF8.self)]
    } else {
      guard let batch = Payload.array(object["batch"]) else {
        return Self.error("invalid_request", "The batch field must be an array", reason: .invalidPayload)
      }
      // Segment's own bounds on a batch, which RudderStack's batches (every message one of its
      // SDKs') do not have: 500 KB, and 2,500 events, past which Segment answers `200` and drops
      // them (``batchEvents``): nothing is recorded, the refusal is counted.
      let isRudderStack =
        !batch.isEmpty && batch.allSatisfy { Payload.objectOrNil($0).map(Self.isRudderStack) ?? false }
      guard isRudderStack || request.body.count <= Self.batchLimit else {
        return Self.error(
          "request_too_large", "Request exceeds the maximum size of 500KB per batch", reason: .bodyTooLarge)
      }
      guard isRudderStack || batch.count <= Self.batchEvents else {
        return SDKReply(status: .ok, body: #"{"success":true}"#, rejection: .tooManyEvents)
      }
      var list: [Properties] = []
      var raws: [String] = []
      for (index, element) in batch.enumerated() {
        guard case .object(let message) = element else {
          return Self.error(
            "invalid_request", "batch[\(index)] is not an object", reason: .invalidPayload)
        }
        let raw = JSONText.string(message)
        guard raw.utf8.count <= Self.messageLimit else {
          return Self.error(
            "request_too_large", "batch[\(index)] exceeds the maximum size of 32KB per call",
            reason: .bodyTooLarge)
        }
        list.append(message)
        raws.append(raw)
      }
      messages = list
      rawTexts = raws
      // A batch's own fields: its messages and write key; `context` and `integrations` Segment
      // would merge into each message are not, and are reported.
      account.check(object, at: "", understood: Self.batchFields, transport: Self.transport[""])
    }
    var credentials = Properties()
    if let writeKey { credentials["writeKey"] = .string(writeKey) }
    // A batch's write key that is not the one kept (another than the request authenticates
    // with, or no text) is reported where the records show it: it was kept nowhere.
    if impliedType == nil, let sent = object["writeKey"], sent != credentials["writeKey"] {
      account.note("writeKey", sent)
    }
    // The call holds the message whole (its type the method, its write key a credential) unless a
    // single call's body names a write key other than the one the request authenticates with.
    let recordsRaw = impliedType != nil && object["writeKey"].map { $0 != credentials["writeKey"] } ?? false
    var events = zip(messages, rawTexts).map { message, raw in
      var event = Self.event(from: message, raw: raw, credentials: credentials)
      event.recordsRaw = recordsRaw
      return event
    }
    account.add(to: &events)
    return SDKReply(status: .ok, body: #"{"success":true}"#, events: events)
  }

  /// One Segment/RudderStack message as an event.
  static func event(from message: Properties, raw: String, credentials: Properties) -> IngestedEvent {
    let type = Payload.string(message["type"]) ?? "track"
    let provider = isRudderStack(message) ? Vendors.rudderstack.rawValue : Vendors.segment.rawValue
    let kind: TagKind
    let name: String
    let properties: Properties
    var violations: [RuleViolation] = []
    if !Self.callTypes.contains(type) || Payload.string(message["type"]) == nil {
      let sent = message["type"].map(JSONText.value) ?? "none"
      violations.append(
        .vendor(
          provider, "call-type",
          "type = \(sent) is not a call type (\(Self.callTypes.sorted().joined(separator: ", "))): "
            + "read as \(type == "track" ? "a track call" : "an event named by `event`")."))
    }
    // Properties or traits that are no object are none to the record: said, not emptied.
    var account = FieldAccount()
    account.noteUnlessObject(message["properties"], at: "properties")
    account.noteUnlessObject(message["traits"], at: "traits")
    account.noteUnreadableIdentity(identityReader) { message[$0] }
    switch type {
    case "screen", "page":
      kind = .screen
      name = Payload.string(message["name"]) ?? Payload.string(message["category"]) ?? type
      properties = Payload.object(message["properties"])
    case "identify":
      kind = .identify
      name = "identify"
      // rudder-sdk-python `client.py` `identify` sends them under `context.traits` only.
      properties =
        Payload.objectOrNil(message["traits"]) ?? Payload.object(Payload.object(message["context"])["traits"])
    case "group":
      kind = .event
      name = "group"
      var traits = Payload.object(message["traits"])
      if let group = message["groupId"], traits["groupId"] == nil { traits["groupId"] = group }
      properties = traits
    case "alias":
      kind = .event
      name = "alias"
      properties = ["previousId": message["previousId"] ?? .null]
    default:
      kind = .event
      if let event = Payload.string(message["event"]), !event.isEmpty {
        name = event
      } else {
        name = type
        violations.append(
          RuleViolation(
            rule: "\(provider).track-event-required", message: "A \(type) call has no `event` name.",
            consequence: .dropped))
      }
      properties = Payload.object(message["properties"])
    }
    if Payload.string(message["userId"]) == nil && Payload.string(message["anonymousId"]) == nil {
      violations.append(
        RuleViolation(
          rule: "\(provider).identity-required",
          message: "The \(type) call has neither `userId` nor `anonymousId`.", consequence: .dropped))
    }
    // The time the SDK stamped on sending, else the one it stamped on the call.
    let timeField = SentTime.sent(message["timestamp"]) ? "timestamp" : "originalTimestamp"
    let time = SentTime.iso8601(
      message[timeField], field: timeField, provider: provider, violations: &violations)
    // The call's name as Segment's SDK call model carries it (see `SegmentCall.name`).
    let callName: String?
    switch type {
    case "track": callName = name
    case "identify": callName = Payload.string(message["userId"]) ?? name
    case "group": callName = Payload.string(message["groupId"]) ?? ""
    case "alias": callName = Payload.string(message["userId"]) ?? ""
    case "screen", "page": callName = name
    default: callName = nil
    }
    var event = IngestedEvent(
      provider: provider, kind: kind, name: name, properties: properties, time: time,
      identity: identity(message),
      call: CallDescription(method: type, name: callName, parameters: message),
      violations: violations, raw: raw, credentials: credentials,
      messageID: Payload.string(message["messageId"]))
    account.add(to: &event)
    return event
  }

  /// The Segment spec's call types.
  static let callTypes: Set<String> = ["track", "identify", "screen", "page", "group", "alias"]

  /// RudderStack's SDKs send the Segment API with a `channel`, a `rudderId` or a library named so.
  static func isRudderStack(_ message: Properties) -> Bool {
    if message["channel"] != nil || message["rudderId"] != nil { return true }
    let library = Payload.object(Payload.object(message["context"])["library"])
    return Payload.string(library["name"])?.lowercased().contains("rudder") ?? false
  }

  /// The user part of `Authorization: Basic …` (Segment's write key).
  static func basicAuthUser(_ headers: HTTPHeaders) -> String? {
    guard let header = headers.first(name: "authorization") else { return nil }
    let parts = header.split(separator: " ", maxSplits: 1)
    guard parts.count == 2, parts[0].lowercased() == "basic", let decoded = Base64.decode(parts[1]) else {
      return nil
    }
    let text = String(decoding: decoded, as: UTF8.self)
    let user = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first.map(
      String.init)
    return user?.isEmpty == false ? user : nil
  }

  static func error(_ code: String, _ message: String, reason: RejectionReason) -> SDKReply {
    let body: Properties = ["success": false, "code": .string(code), "message": .string(message)]
    return SDKReply(status: .badRequest, body: JSONText.string(body), rejection: reason)
  }
}
