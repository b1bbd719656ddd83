import AnalyticsHub
import AnalyticsProviders
import Foundation
import NIOHTTP1
import TagscopeRecording

/// Snowplow's collector: `POST /com.snowplowanalytics.snowplow/tp2` (a `payload_data` JSON with a
/// `data` array) and `GET /i` (one event in the query).
///
/// Structured events (`e=se`), self-describing events (`e=ue`, `ue_pr` JSON or base64 `ue_px`),
/// page views and the rest; contexts from `co` or base64 `cx` are decoded into the call. A
/// self-describing event's call is named after the schema it names
/// (`iglu:com.acme/add_to_cart/jsonschema/1-0-0`, so a catalogue matches vendor, name and
/// version), while its record keeps the name people read (`add_to_cart`, or the screen's name for
/// a `screen_view`). Replies `200` with an empty body; malformed JSON or base64 gets `400`.
struct SnowplowEndpoint: SDKEndpoint {
  var provider: String { Vendors.snowplow.rawValue }
  /// The collector's default maximum request size: 1 MB.
  var bodyLimit: Int { Vendor.Limit.snowplowCollector.requestBytes }

  func replyTooLarge() -> SDKReply {
    SDKReply(
      status: .payloadTooLarge, contentType: "text/plain", body: "Request too large", rejection: .bodyTooLarge
    )
  }

  /// Snowplow's transport fields (``Vendor/TransportFields/snowplow``).
  static let transport = TransportLevels(Vendor.snowplow, levels: [""])

  func handle(_ request: ReceivedRequest) -> SDKReply {
    var payloads: [[(name: String, value: String)]] = []
    var raws: [String] = []
    var account = FieldAccount()
    if request.method == .GET {
      payloads = [request.query]
      raws = [request.query.map { "\($0.name)=\($0.value)" }.joined(separator: "&")]
    } else {
      guard request.isJSON else {
        return Self.fail("Content-Type must be application/json", .wrongContentType)
      }
      let body: PropertyValue
      do { body = try JSONParser.parse(request.body) } catch {
        return Self.fail("Invalid JSON: \(error)", .malformedJSON)
      }
      guard let data = Payload.array(Payload.object(body)["data"]) else {
        return Self.fail("The payload_data must have a data array", .invalidPayload)
      }
      account.check(Payload.object(body), at: "", understood: ["data"], transport: Self.transport[""])
      for element in data {
        guard case .object(let fields) = element else {
          return Self.fail("Every element of data must be an object", .invalidPayload)
        }
        payloads.append(
          fields.map { (name: $0.key, value: Payload.string($0.value) ?? JSONText.value($0.value)) })
        raws.append(JSONText.string(fields))
      }
    }
    var events: [IngestedEvent] = []
    for (fields, raw) in zip(payloads, raws) {
      guard let event = Self.event(fields, raw: raw) else {
        return Self.fail("An event has no `e` or an undecodable ue_px/ue_pr/cx/co", .invalidPayload)
      }
      events.append(event)
    }
    account.add(to: &events)
    return SDKReply(status: .ok, contentType: "text/plain", body: "", events: events)
  }

  static func fail(_ message: String, _ reason: RejectionReason) -> SDKReply {
    SDKReply(status: .badRequest, contentType: "text/plain", body: message, rejection: reason)
  }

  /// One tracker payload as an event; `nil` when it has no `e` or a part does not decode.
  static func event(_ fields: [(name: String, value: String)], raw: String) -> IngestedEvent? {
    func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
    guard let type = field("e"), !type.isEmpty else { return nil }
    // Every field is read by its first value, as `field` reads it: a later, different value of a
    // field (a query's repeated parameter), or a part sent both ways (`ue_pr` and `ue_px`, `co`
    // and `cx`), is reported, not kept in place of the first without a word.
    var account = FieldAccount()
    account.checkRepeats(in: fields, at: "")
    var pairs: [(String, PropertyValue)] = []
    pairs.reserveCapacity(fields.count)
    // The name each parameter was first read from (a part's two names read into one).
    var firstNames: [String: String] = [:]
    firstNames.reserveCapacity(fields.count)
    for (name, value) in fields {
      let key =
        switch name {
        case "ue_pr", "ue_px": "unstruct_event"
        case "co", "cx": "contexts"
        default: name
        }
      if let first = firstNames[key] {
        // The same name again is `checkRepeats`'s; the part's other name is reported here.
        if first != name { account.note(name, .string(value)) }
        continue
      }
      firstNames[key] = name
      switch name {
      case "ue_pr", "ue_px", "co", "cx":
        guard let decoded = decodeJSON(value, base64: name == "ue_px" || name == "cx") else { return nil }
        pairs.append((key, decoded))
      default: pairs.append((name, .string(value)))
      }
    }
    // Linear however many fields repeat (an 88,000-field event took 21 s one by one).
    let parameters = Properties(pairs)
    let kind: TagKind
    let name: String
    let method: String
    var callName: String?
    var properties = Properties()
    var violations: [RuleViolation] = []
    switch type {
    case "se":
      kind = .event
      method = "trackStructEvent"
      name = field("se_ac") ?? "struct"
      if field("se_ac") == nil {
        violations.append(
          .vendor(
            Vendors.snowplow.rawValue, "event-name",
            "A structured event without se_ac (its action): recorded as struct."))
      }
      for (key, label) in [
        ("se_ca", "category"), ("se_ac", "action"), ("se_la", "label"), ("se_pr", "property"),
      ] {
        if let value = field(key) { properties[label] = .string(value) }
      }
      if let value = field("se_va") {
        properties["value"] = Payload.number(value).map(PropertyValue.double) ?? .string(value)
      }
    case "ue":
      method = "trackSelfDescribingEvent"
      account.noteUnlessObject(parameters["unstruct_event"], at: "unstruct_event")
      let envelope = Payload.object(parameters["unstruct_event"])
      account.noteUnlessObject(envelope["data"], at: "unstruct_event.data")
      let inner = Payload.object(envelope["data"])
      account.noteUnlessObject(inner["data"], at: "unstruct_event.data.data")
      let schema = Payload.string(inner["schema"]) ?? ""
      let eventName = schema.isEmpty ? "ue" : schemaName(schema)
      callName = schema.isEmpty ? nil : schema
      properties = Payload.object(inner["data"])
      if schema.isEmpty {
        violations.append(
          .vendor(
            Vendors.snowplow.rawValue,
            "event-name",
            "A self-describing event names no schema (unstruct_event.data.schema): recorded as ue."))
      }
      if eventName == "screen_view" {
        kind = .screen
        name = Payload.string(properties["name"]) ?? eventName
      } else {
        kind = .event
        name = eventName
      }
    case "pv":
      kind = .screen
      method = "trackPageView"
      name = field("page") ?? field("url") ?? "page_view"
      for key in ["url", "page", "refr"] {
        if let value = field(key) { properties[key] = .string(value) }
      }
    case "pp":
      kind = .event
      method = "trackPagePing"
      name = "page_ping"
    default:
      kind = .event
      method = "track"
      name = type
      if !Self.eventTypes.contains(type) {
        violations.append(
          .vendor(
            Vendors.snowplow.rawValue,
            "event-type",
            "e=\(Payload.excerpt(type)) is no event type of the tracker protocol: recorded as an event of that name."
          ))
      }
    }
    // The true timestamp the app set, else the device's.
    let timeField = field("ttm") != nil ? "ttm" : "dtm"
    let time = SentTime.read(
      field(timeField).map(PropertyValue.string), .milliseconds, form: .numberOrText, field: timeField,
      provider: Vendors.snowplow.rawValue, violations: &violations)
    var record = IngestedEvent(
      provider: Vendors.snowplow.rawValue, kind: kind, name: name, properties: properties, time: time,
      identity: identity(field: field, contexts: parameters["contexts"]),
      call: CallDescription(method: method, name: callName ?? name, parameters: parameters),
      violations: violations, raw: raw,
      credentials: field("aid").map { ["aid": .string($0)] } ?? [:], messageID: field("eid"))
    account.add(to: &record)
    return record
  }

  /// The tracker protocol's event types (`e`): page view, page ping, ecommerce transaction and
  /// its item, structured and self-describing events (Snowplow's tracker protocol reference).
  static let eventTypes: Set<String> = ["pv", "pp", "tr", "ti", "se", "ue"]

  /// `vendor/name/jsonschema/1-0-0` → `name`.
  static func schemaName(_ schema: String) -> String {
    let parts = schema.split(separator: "/")
    return parts.count >= 3 ? String(parts[parts.count - 3]) : schema
  }

  static func decodeJSON(_ text: String, base64: Bool) -> PropertyValue? {
    if base64 {
      guard let bytes = Base64.decode(text) else { return nil }
      return try? JSONParser.parse(bytes)
    }
    return try? JSONParser.parse(text)
  }
}
