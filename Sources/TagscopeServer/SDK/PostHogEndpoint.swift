import AnalyticsHub
import AnalyticsProviders
import NIOHTTP1
import TagscopeRecording

/// PostHog's capture API: `/batch/`, `/capture/`, `/e/`, `/i/v0/e/`.
///
/// Accepts `{"api_key","batch":[…]}`, a single event, or an array of events, as JSON, or a form
/// field `data=` holding JSON or base64 JSON. Replies `200 {"status":1}`; `400` with PostHog's
/// `type`/`code`/`detail` error shape (the Python SDK reads `detail`), `401` without an API key.
struct PostHogEndpoint: SDKEndpoint {
  var provider: String { Vendors.posthog.rawValue }
  /// PostHog's capture limit: 20 MB per request.
  var bodyLimit: Int { Vendor.Limit.postHogCapture.requestBytes }
  /// The fields of a batch request the decoder carries: its events and API key.
  static let batchFields: Set<String> = ["batch", "api_key", "token"]
  /// PostHog's transport fields (``Vendor/TransportFields/posthog``).
  static let transport = TransportLevels(Vendor.posthog, levels: [""])
  /// PostHog's bound on one event: 1 MB of JSON.
  static let eventBytes = Vendor.Limit.postHogCapture.eventBytes ?? .max

  func replyTooLarge() -> SDKReply {
    Self.error(
      .payloadTooLarge, "validation_error", "request_too_large", "Request body too large", .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    var text: String
    let fields = Self.fields(request)
    if request.isForm {
      guard let data = Self.dataField(fields) else {
        return Self.malformed("Malformed request data: no data field", .invalidPayload)
      }
      text = data
    } else if request.isJSON || request.mediaType == nil || request.mediaType == "text/plain" {
      text = String(decoding: request.body, as: UTF8.self)
    } else {
      return Self.malformed("Content-Type must be application/json", .wrongContentType)
    }
    if request.method == .GET, let data = request.queryValue("data") { text = data }
    guard let payload = MixpanelEndpoint.decodePayload(text) else {
      return Self.malformed("Malformed request data: invalid JSON", .malformedJSON)
    }
    var apiKey: String?
    let messages: [PropertyValue]
    var batchObject: Properties?
    switch payload {
    case .array(let list): messages = list
    case .object(let object):
      apiKey = Payload.text(object["api_key"]) ?? Payload.text(object["token"])
      if let batch = Payload.array(object["batch"]) {
        messages = batch
        batchObject = object
      } else {
        messages = [payload]
      }
    default: return Self.malformed("Malformed request data: not an object", .invalidPayload)
    }
    let account = Self.requestAccount(fields: fields, batch: batchObject)
    var events: [IngestedEvent] = []
    for (index, element) in messages.enumerated() {
      guard case .object(let message) = element else {
        return Self.malformed("Malformed request data: event \(index) is not an object", .invalidPayload)
      }
      switch Self.check(message, apiKey: apiKey) {
      case .failure(let refusal): return refusal.reply
      case .success(let checked):
        let event = Self.event(message, name: checked.name, apiKey: checked.key)
        guard event.raw.utf8.count <= Self.eventBytes else {
          return Self.eventTooBig(index: index, bytes: event.raw.utf8.count)
        }
        events.append(event)
      }
    }
    account.add(to: &events)
    return SDKReply(status: .ok, body: #"{"status":1}"#, events: events)
  }

  /// A request's query and, for a form, its form fields after it (where `data` is read).
  static func fields(_ request: ReceivedRequest) -> [(name: String, value: String)] {
    guard request.isForm else { return request.query }
    return request.query + FormDecoding.pairs(String(decoding: request.body, as: UTF8.self))
  }

  /// The `data` field a form request's JSON is read from: the last of `fields`.
  static func dataField(_ fields: [(name: String, value: String)]) -> String? {
    fields.last(where: { $0.name == "data" })?.value
  }

  /// The request's own fields neither read nor PostHog's transport, reported on its first record:
  /// its query and form `fields` besides `data`, and the members of its `batch` object (`nil` for
  /// a single event or an array) besides ``batchFields``. Both ``handle(_:)`` and
  /// ``handleLazily(_:)`` check a request with it.
  static func requestAccount(fields: [(name: String, value: String)], batch: Properties?) -> FieldAccount {
    var account = FieldAccount()
    account.check(pairs: fields, at: "", understood: { $0 == "data" }, transport: transport[""])
    if let batch { account.check(batch, at: "", understood: batchFields, transport: transport[""]) }
    return account
  }

  /// PostHog's `413` for event `index`, of `bytes`, past ``eventBytes``.
  static func eventTooBig(index: Int, bytes: Int) -> SDKReply {
    error(
      .payloadTooLarge, "validation_error", "event_too_big",
      "Event \(index) is \(bytes) bytes: maximum event size exceeded "
        + "(\(Self.eventBytes) bytes)", .bodyTooLarge)
  }

  static func event(_ message: Properties, name: String, apiKey: String) -> IngestedEvent {
    let sent = Payload.object(message["properties"])
    var properties = sent
    properties["token"] = nil
    let kind: TagKind
    var displayName = name
    var setOnce: Properties?
    switch name {
    case "$identify", "$set", "$set_once", "$groupidentify":
      kind = .identify
      displayName = name == "$groupidentify" ? "groupIdentify" : "identify"
      // The traits set; those set only once (posthog-js's `identify(id, set, setOnce)`, often its
      // `$initial_…` ones; posthog-python's `set_once`) kept beside the call (`set_once`): a trait
      // set once does not replace one already there, and is no trait a plan lists.
      let once = Payload.objectOrNil(message["$set_once"] ?? properties["$set_once"])
      if let set = Payload.objectOrNil(message["$set"] ?? properties["$set"]) {
        properties = set
        if let once, !once.isEmpty { setOnce = once }
      } else if name == "$set_once", let once {
        properties = once
      }
    case "$screen":
      kind = .screen
      displayName = Payload.string(properties["$screen_name"]) ?? name
    case "$pageview":
      kind = .screen
      displayName =
        Payload.string(properties["$pathname"]) ?? Payload.string(properties["$current_url"]) ?? name
    default: kind = .event
    }
    var violations: [RuleViolation] = []
    let time = SentTime.iso8601(
      message["timestamp"], field: "timestamp", provider: Vendors.posthog.rawValue, violations: &violations)
    var event = IngestedEvent(
      provider: Vendors.posthog.rawValue, kind: kind, name: displayName, properties: properties, time: time,
      identity: identity(message, properties: sent),
      call: CallDescription(method: "capture", name: name, parameters: message), violations: violations,
      raw: JSONText.string(message), recordsRaw: false,
      credentials: ["api_key": .string(apiKey)], messageID: Payload.string(message["uuid"]))
    if let setOnce { event.annotations["set_once"] = .object(setOnce) }
    // Properties that are no object are none to the record: said, not emptied without a word.
    var account = FieldAccount()
    account.noteUnlessObject(message["properties"], at: "properties")
    account.noteUnreadableIdentity(identityReader) { $0 == "properties" ? .object(sent) : message[$0] }
    account.add(to: &event)
    return event
  }

  static func malformed(_ detail: String, _ reason: RejectionReason) -> SDKReply {
    error(.badRequest, "validation_error", "invalid_payload", detail, reason)
  }

  static func error(
    _ status: HTTPResponseStatus, _ type: String, _ code: String, _ detail: String, _ reason: RejectionReason
  ) -> SDKReply {
    let body: Properties = [
      "type": .string(type), "code": .string(code), "detail": .string(detail), "attr": .null,
    ]
    return SDKReply(status: status, body: JSONText.string(body), rejection: reason)
  }
}
