import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording
import TagscopeVendors

/// The GA4 Measurement Protocol: `/mp/collect` and the validation server `/debug/mp/collect`.
///
/// `/mp/collect` answers `204` whatever the payload, as Google does (a body over 130 kB gets
/// `413`); `/debug/mp/collect` answers `200` with `validationMessages` (`fieldPath`,
/// `description`, `validationCode`) checked against Google's documented limits and reserved
/// names. Every event is recorded; the rules it breaks travel with it as violations.
///
/// A request with more than 25 events is refused whole, as Google documents ("Requests can have a
/// maximum of 25 events", Measurement Protocol, Sending events › Limitations,
/// developers.google.com/analytics/devguides/collection/protocol/ga4/sending-events): `/mp/collect`
/// still answers `204` (Google's collector answers every request so), the validation server its
/// `EXCEEDED_MAX_ENTITIES` message; nothing is recorded and the refusal is counted as a problem.
/// Each record's `raw` is the request with only its own event in `events`, so a batch costs its
/// size once in the recording, not once per event.
struct GA4Endpoint: SDKEndpoint {
  /// `true` for `/debug/mp/collect`.
  var isValidation: Bool

  /// The fields of a request the decoder carries: its events, who sent them and when
  /// (``Vendor/IdentityFields``: `device.operating_system`, `device.model`), and the device
  /// whole (as each record's `device` annotation).
  static let requestFields: Set<String> = [
    "events", "client_id", "app_instance_id", "user_id", "timestamp_micros", "device",
  ]
  /// The fields of an event the decoder carries: its name, parameters and time.
  static let eventFields: Set<String> = ["name", "params", "timestamp_micros"]
  /// GA4's transport fields (``Vendor/TransportFields/ga4``).
  static let transport = TransportLevels(Vendor.ga4, levels: ["", "events[]"])

  var provider: String { Vendors.ga4.rawValue }
  var bodyLimit: Int { Vendor.Limit.ga4Collect.requestBytes }

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, contentType: "text/plain", body: "Request body exceeds 130kB",
      rejection: .bodyTooLarge)
  }

  func handle(_ request: ReceivedRequest) -> SDKReply {
    let body: PropertyValue
    do { body = try JSONParser.parse(request.body) } catch {
      return reply(
        [
          GA4Validator.Message(
            fieldPath: "", description: "Unable to parse Measurement Protocol JSON payload. \(error)",
            code: "VALUE_INVALID")
        ], events: [], rejection: .malformedJSON)
    }
    guard case .object(let object) = body else {
      return reply(
        [
          GA4Validator.Message(
            fieldPath: "", description: "The payload must be a JSON object.", code: "VALUE_INVALID")
        ],
        events: [], rejection: .invalidPayload)
    }
    let validation = GA4Validator.validate(object, query: request)
    let events = Payload.array(object["events"]) ?? []
    guard events.count <= FirebaseLimits.maximumEventsPerRequest else {
      return reply(validation.request, events: [], rejection: .tooManyEvents)
    }
    let consequence: RuleViolation.Consequence = isValidation ? .rejected : .dropped
    // The query's stream and secret, which the validator read, kept for HAR export: the secret
    // as given or not, never its value.
    var annotations = Properties()
    for name in Vendor.ga4MeasurementProtocolQuery {
      guard let value = request.queryValue(name) else { continue }
      let secret = Vendor.ga4SecretQuery.contains(name) && !value.isEmpty
      annotations[name] = .string(secret ? Vendor.ga4KeptSecret : value)
    }
    if isValidation { annotations[Vendor.ga4ValidationMarker] = .bool(true) }
    var request = FieldAccount()
    request.check(object, at: "", understood: Self.requestFields, transport: Self.transport[""])
    request.noteUnreadableIdentity(Self.identityReader) { $0 == "params" ? nil : object[$0] }
    // The device the request describes (its category, language, screen, OS and version, model,
    // brand, browser), carried whole on each record: the identity reads two of its members.
    if let device = Payload.objectOrNil(object["device"]), !device.isEmpty {
      annotations["device"] = .object(device)
    } else {
      request.noteUnlessObject(object["device"], at: "device")
    }
    var ingested: [IngestedEvent] = []
    for (index, element) in events.enumerated() {
      let event = Payload.object(element)
      let messages = validation.request + (validation.perEvent[index] ?? [])
      var own = object
      own["events"] = .array([element])
      var record = Self.event(
        event, request: object, raw: JSONText.string(own),
        violations: messages.map { $0.violation(consequence: consequence) })
      record.annotations = annotations
      // Its place in the request (the validator's messages name it), which HAR export gathers by.
      if index > 0 { record.annotations["event_index"] = .int(index) }
      var account = FieldAccount()
      if case .object = element {
        account.check(
          event, at: "events[\(index)]", understood: Self.eventFields, transport: Self.transport["events[]"])
        if let params = event["params"], Payload.objectOrNil(params) == nil {
          account.note("events[\(index)].params", params)
        }
        // The event's own ids (its session); the request's are its first record's.
        let params = Payload.object(event["params"])
        account.noteUnreadableIdentity(Self.identityReader, at: "events[\(index)]") {
          $0 == "params" ? .object(params) : nil
        }
      } else {
        account.note("events[\(index)]", element)
      }
      account.add(to: &record)
      ingested.append(record)
    }
    if ingested.isEmpty {
      // No event (none sent, or `events` no array): the request is still recorded, with what the
      // validator says of it, not dropped without a word.
      if let sent = object["events"], Payload.array(sent) == nil { request.note("events", sent) }
      var record = IngestedEvent(
        provider: Vendors.ga4.rawValue, kind: .event, name: "request", properties: [:], time: nil,
        identity: Self.identity(request: object, params: [:]),
        call: CallDescription(method: "request", name: nil, parameters: [:]),
        violations: validation.request.map { $0.violation(consequence: consequence) },
        raw: JSONText.string(object))
      record.annotations = annotations
      ingested.append(record)
    }
    request.add(to: &ingested)
    return reply(
      validation.request + validation.perEvent.keys.sorted().flatMap { validation.perEvent[$0]! },
      events: ingested, rejection: nil)
  }

  private func reply(_ messages: [GA4Validator.Message], events: [IngestedEvent], rejection: RejectionReason?)
    -> SDKReply
  {
    guard isValidation else {
      return SDKReply(
        status: .noContent, contentType: "text/plain", body: "", events: events, rejection: rejection)
    }
    let list = messages.map { message -> PropertyValue in
      let fields: Properties = [
        "fieldPath": .string(message.fieldPath), "description": .string(message.description),
        "validationCode": .string(message.code),
      ]
      return .object(fields)
    }
    return SDKReply(
      status: .ok, body: JSONText.string(["validationMessages": .array(list)]), events: events,
      rejection: rejection)
  }

  static func event(
    _ event: Properties, request: Properties, raw: String, violations: [RuleViolation]
  ) -> IngestedEvent {
    var violations = violations
    let name = Payload.string(event["name"]) ?? ""
    let params = Payload.object(event["params"])
    let kind: TagKind
    let displayName: String
    switch name {
    case "screen_view":
      kind = .screen
      displayName = Payload.string(params["screen_name"]) ?? name
    case "page_view":
      kind = .screen
      displayName = Payload.string(params["page_title"]) ?? Payload.string(params["page_location"]) ?? name
    case "login", "sign_up":
      kind = .identify
      displayName = name
    default:
      kind = .event
      displayName = name
    }
    // The event's own time, else the request's.
    let (stamp, field) =
      SentTime.sent(event["timestamp_micros"])
      ? (event["timestamp_micros"], "timestamp_micros")
      : (request["timestamp_micros"], "request.timestamp_micros")
    let time = SentTime.read(
      stamp, .microseconds, form: .numberOrText, field: field, provider: Vendors.ga4.rawValue,
      violations: &violations)
    return IngestedEvent(
      provider: Vendors.ga4.rawValue, kind: kind, name: displayName, properties: params,
      time: time,
      identity: identity(request: request, params: params),
      call: CallDescription(method: "logEvent", name: name, parameters: params), violations: violations,
      raw: raw)
  }
}
