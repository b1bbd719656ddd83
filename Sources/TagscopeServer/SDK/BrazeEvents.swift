import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeVendors

/// Braze's event objects and attribute objects (``BrazeEndpoint``) as the Braze Swift SDK calls
/// that send them, named as `BrazeCall` records them in-app: `ce` is `logCustomEvent` (name `n`,
/// the properties `p`), `p` is `logPurchase` (product `pid`, then `currency`, `price`, `quantity`
/// and the properties `pr`), `inc` is `incrementCustomUserAttribute` (`by`), a `custom` attribute
/// is `setCustomAttribute` (`value`), or `unsetCustomAttribute` when `null`.
///
/// Type codes and data keys as braze-inc/braze-roku-sdk `BrazeSDK.brs` @ 0d97001684dab47d28580ea61fdd1076e9c6bac8
/// names them (`EVENT_TYPES`, `BRAZE_EVENT_API_FIELDS`): besides those, `ss`/`se` a session's
/// start and end (`d` its seconds), `add`/`rem` a custom attribute array's value added or
/// removed, `lcaa` a location attribute, `uae` a user alias (`a`, `l`). The SDK's own events
/// (in-app message and content card impressions and clicks, feature flag impressions, push
/// clicks, and, from the Android SDK's event enum (decompiled, code index ids 36507596808 and
/// 20693921742), push action and story clicks, display failures, geofence transitions `g` and push
/// deliveries `pd`, and the current SDK's `pde` and banner impressions, clicks and dismissals `bi`,
/// `bc`, `bd`) are recorded as `sdkEvent` calls; a code Tagscope does not know is recorded the same
/// way, with a violation that names its place. The current Android SDK's nested custom attribute
/// merge `ncam` is `setCustomAttribute` with `merge`, and a subscription group update `sgu` of a
/// known `status` is `addToSubscriptionGroup` or `removeFromSubscriptionGroup` (its `group_id`).
enum BrazeEvents {
  /// The request's fields every record of it shares.
  struct RequestContext {
    let fields: Properties
    let apiKey: String
  }

  /// One decoded event: its kind, record name, call, record properties and the data keys read.
  private struct Decoded {
    var kind: TagKind
    var name: String
    var call: CallDescription
    var properties: Properties
    var read: Set<String>
    /// The data keys whose values the call holds whole (`p` of a custom event).
    var carried: Set<String> = []
    var violations: [RuleViolation] = []
  }

  /// The event object's own fields.
  static let eventFields: Set<String> = ["name", "data", "time", "session_id", "user_id"]

  /// The SDK's own events, by type code, under the names its API reference gives them.
  static let sdkEvents: [String: String] = [
    "si": "in_app_message_impression", "sc": "in_app_message_click", "sbc": "in_app_message_button_click",
    "iec": "in_app_message_control_impression", "ffi": "feature_flag_impression",
    "pc": "push_notification_click", "lr": "location_recorded", "cci": "content_card_impression",
    "ccic": "content_card_control_impression", "ccc": "content_card_click", "ccd": "content_card_dismissed",
    "ci": "news_feed_card_impression", "cc": "news_feed_card_click", "sgu": "subscription_group_update",
    "i": "internal", "ie": "internal_error", "ca": "push_notification_action_click",
    "cic": "push_story_page_click", "sfe": "in_app_message_display_failure", "g": "geofence",
    "pd": "push_delivery", "tt": "test",
    // The current Android SDK's event enum (decompiled, code index ids 60152171022, 3869604346).
    "pde": "push_delivery", "bi": "banner_impression", "bc": "banner_click", "bd": "banner_dismissed",
  ]

  /// A subscription group update's `status` and the Swift SDK's call it is (`sgu`, data `group_id`).
  static let subscriptionCalls = [
    "subscribed": "addToSubscriptionGroup", "unsubscribed": "removeFromSubscriptionGroup",
  ]

  /// The record of the event object `event` of type `code`, at `place` (`events[2]`).
  static func event(code: String, _ event: Properties, place: String, _ context: RequestContext)
    -> IngestedEvent
  {
    let data = Payload.object(event["data"])
    var decoded = decode(code: code, data: data, place: place)
    var unread = Properties()
    unread.merge(event.filter { !eventFields.contains($0.key) }.map { ("\(place).\($0.key)", $0.value) })
    if event["data"] != nil, Payload.objectOrNil(event["data"]) == nil {
      unread.merge([("\(place).data", event["data"]!)])
    }
    unread.merge(data.filter { !decoded.read.contains($0.key) }.map { ("\(place).data.\($0.key)", $0.value) })
    let time = SentTime.read(
      event["time"], .seconds, field: "\(place).time", provider: Vendors.braze.rawValue,
      violations: &decoded.violations)
    // The event as sent but what its call holds: the record keeps each value once.
    var message = event
    if event["data"].flatMap(Payload.objectOrNil) != nil {
      message["data"] = .object(
        Properties(data.filter { !decoded.carried.contains($0.key) }.map { ($0.key, $0.value) }))
    }
    return record(
      decoded, time: time, identity: BrazeEndpoint.identity(event, context.fields), raw: "", message: message,
      unread: unread, context: context)
  }

  /// The records of one attribute object at `place` (`attributes[0]`): one per custom attribute,
  /// then one per standard attribute (`first_name`, `email`…, recorded as `set`).
  static func attributes(_ attribute: Properties, place: String, _ context: RequestContext)
    -> [IngestedEvent]
  {
    let identity = BrazeEndpoint.identity(attribute, context.fields)
    let user: Properties = attribute["user_id"].map { ["user_id": $0] } ?? [:]
    var records: [IngestedEvent] = []
    var unread = Properties()
    if let custom = attribute["custom"], Payload.objectOrNil(custom) == nil {
      unread.merge([("\(place).custom", custom)])
    }
    for (key, value) in Payload.object(attribute["custom"]) {
      let call =
        value == .null
        ? CallDescription(method: "unsetCustomAttribute", name: key, parameters: [:])
        : CallDescription(method: "setCustomAttribute", name: key, parameters: ["value": value])
      let decoded = Decoded(kind: .identify, name: key, call: call, properties: call.parameters, read: [])
      records.append(
        record(
          decoded, time: nil, identity: identity, raw: "", message: user,
          unread: records.isEmpty ? unread : [:], context: context))
    }
    for (key, value) in attribute where key != "custom" && key != "user_id" {
      let call = CallDescription(method: "set", name: key, parameters: ["value": value])
      let decoded = Decoded(kind: .identify, name: key, call: call, properties: call.parameters, read: [])
      records.append(
        record(
          decoded, time: nil, identity: identity, raw: "", message: user,
          // The object's fields not understood go on its first record only, as a request's own:
          // on each, a large one was copied as many times as the object sets attributes.
          unread: records.isEmpty ? unread : [:], context: context))
    }
    if records.isEmpty, !unread.isEmpty {
      // Nothing Tagscope reads, but fields it does not: recorded, not dropped.
      let call = CallDescription(method: "attributes", name: nil, parameters: [:])
      let decoded = Decoded(kind: .identify, name: "attributes", call: call, properties: [:], read: [])
      let raw = JSONText.string(attribute)
      records.append(
        record(decoded, time: nil, identity: identity, raw: raw, unread: unread, context: context))
    }
    return records
  }

  /// The request keys whose values are its records (a geofence report's one `geofence_event`).
  static let eventCarriers: Set<String> = ["events", "attributes", "geofence_event"]

  /// Adds what the request itself carries (its fields but the events and attributes, and those
  /// Tagscope does not read, by place) to its first record, once per request; a request without
  /// records whose fields Tagscope does not read gets a record of its own, so nothing is dropped.
  static func addRequest(
    _ fields: Properties, unread: Properties, to events: inout [IngestedEvent], _ context: RequestContext
  ) {
    let carried = Properties(
      fields.filter { !eventCarriers.contains($0.key) }.map { ($0.key, $0.value) })
    if events.isEmpty {
      guard !unread.isEmpty else { return }
      let call = CallDescription(method: "request", name: nil, parameters: [:])
      let decoded = Decoded(kind: .event, name: "request", call: call, properties: [:], read: [])
      events.append(
        record(
          decoded, time: nil, identity: BrazeEndpoint.identity([:], fields), raw: JSONText.string(carried),
          unread: [:], context: context))
    }
    var annotations = events[0].annotations
    annotations.merge([("request", .object(carried))])
    if !unread.isEmpty {
      annotations.merge([("unread", .object(unread.merging(Payload.object(annotations["unread"]))))])
    }
    events[0].annotations = annotations
  }

  /// The record of `decoded`; with `message`, what the call does not hold of the message (kept
  /// under `message`), and no `raw`: the call and it hold the message whole.
  private static func record(
    _ decoded: Decoded, time: Date?, identity: DeviceIdentity, raw: String, message: Properties? = nil,
    unread: Properties, context: RequestContext
  ) -> IngestedEvent {
    var event = IngestedEvent(
      provider: Vendors.braze.rawValue, kind: decoded.kind, name: decoded.name,
      properties: decoded.properties,
      time: time, identity: identity, call: decoded.call, violations: decoded.violations, raw: raw,
      credentials: ["api_key": .string(context.apiKey)])
    if let message {
      event.recordsRaw = false
      if !message.isEmpty { event.annotations.appendUnchecked("message", .object(message)) }
    }
    if !unread.isEmpty { event.annotations.appendUnchecked("unread", .object(unread)) }
    return event
  }

  private static func decode(code: String, data: Properties, place: String) -> Decoded {
    /// `key` when its value is text (or a number, or absent): read; else left to `unread`.
    func textual(_ key: String) -> Set<String> {
      data[key] == nil || Payload.string(data[key]) != nil ? [key] : []
    }
    func keyed(_ method: String, _ parameters: Properties, read: Set<String>) -> Decoded {
      let key = Payload.string(data["key"]) ?? ""
      let call = CallDescription(method: method, name: key, parameters: parameters)
      return Decoded(
        kind: .identify, name: key, call: call, properties: parameters, read: read.union(textual("key")))
    }
    /// ``keyed`` of an attribute change whose `value` the SDKs always send: one without it is
    /// recorded with `assumed` and says so.
    func valued(_ method: String, _ name: String, assumed: PropertyValue) -> Decoded {
      var decoded = keyed(method, [name: data["value"] ?? assumed], read: ["value"])
      if data["value"] == nil {
        decoded.violations.append(
          RuleViolation(
            rule: "braze.attribute-value",
            message: "\(place) (\(code)) has no data.value: recorded as \(JSONText.value(assumed)).",
            consequence: .degraded))
      }
      return decoded
    }
    switch code {
    case "ce":
      let name = Payload.string(data["n"]) ?? ""
      let properties = Payload.object(data["p"])
      var decoded = Decoded(
        kind: .event, name: name,
        call: CallDescription(method: "logCustomEvent", name: name, parameters: properties),
        properties: properties, read: data["n"] == nil || Payload.string(data["n"]) != nil ? ["n"] : [])
      if data["p"] == nil || Payload.objectOrNil(data["p"]) != nil {
        decoded.read.insert("p")
        decoded.carried.insert("p")
      }
      if name.isEmpty {
        decoded.violations.append(
          RuleViolation(
            rule: "braze.custom-event-name",
            message: "\(place) is a custom event (ce) without a name (data.n).",
            consequence: .dropped))
      }
      return decoded
    case "p":
      let product = Payload.string(data["pid"]) ?? ""
      var parameters: Properties = [
        "currency": data["c"] ?? .null,
        "price": data["p"]?.doubleValue.map(PropertyValue.double) ?? data["p"] ?? .null,
        "quantity": quantity(data["q"]),
      ]
      let properties = data["pr"].flatMap(Payload.objectOrNil)
      parameters.merge((properties ?? [:]).map { ($0.key, $0.value) })
      // A field of another shape than Braze's is kept under `unread`, not read as empty.
      var read: Set<String> = ["c", "p", "q"]
      if data["pid"] == nil || Payload.string(data["pid"]) != nil { read.insert("pid") }
      if data["pr"] == nil || properties != nil { read.insert("pr") }
      var decoded = Decoded(
        kind: .event, name: product,
        call: CallDescription(method: "logPurchase", name: product, parameters: parameters),
        properties: parameters, read: read, carried: properties == nil ? [] : ["pr"])
      if product.isEmpty {
        decoded.violations.append(
          RuleViolation(
            rule: "braze.purchase-product",
            message: "\(place) is a purchase (p) without a product id (data.pid).", consequence: .degraded))
      }
      return decoded
    case "ss":
      return Decoded(
        kind: .sessionStart, name: "session_start",
        call: CallDescription(method: "sessionStart", name: nil, parameters: [:]), properties: [:], read: [])
    case "se":
      let parameters: Properties = data["d"].map { ["duration": $0] } ?? [:]
      return Decoded(
        kind: .sessionEnd, name: "session_end",
        call: CallDescription(method: "sessionEnd", name: nil, parameters: parameters),
        properties: parameters,
        read: ["d"])
    case "inc":
      return valued("incrementCustomUserAttribute", "by", assumed: .int(1))
    case "add":
      return valued("addToCustomAttributeArray", "value", assumed: .null)
    case "rem":
      return valued("removeFromCustomAttributeArray", "value", assumed: .null)
    case "set":
      return valued("setCustomAttributeArray", "value", assumed: .null)
    case "lcaa":
      let parameters: Properties = [
        "latitude": data["latitude"] ?? .null, "longitude": data["longitude"] ?? .null,
      ]
      return keyed("setLocationCustomAttribute", parameters, read: ["latitude", "longitude"])
    case "lcar":
      return keyed("unsetLocationCustomAttribute", [:], read: [])
    case "ncam":
      // A nested custom attribute merged into (the Android SDK's `NESTED_CUSTOM_ATTRIBUTE_MERGE`,
      // data `key` and an object `value`; the Swift SDK's `setCustomAttribute(key:value:merge:)`).
      return keyed(
        "setCustomAttribute", ["value": data["value"] ?? .null, "merge": .bool(true)], read: ["value"])
    case "sgu" where subscriptionCalls[Payload.string(data["status"]) ?? ""] != nil:
      let group = Payload.string(data["group_id"]) ?? ""
      let method = subscriptionCalls[Payload.string(data["status"]) ?? ""] ?? ""
      return Decoded(
        kind: .identify, name: group, call: CallDescription(method: method, name: group, parameters: [:]),
        properties: [:], read: textual("group_id").union(["status"]))
    case "uae":
      let alias = Payload.string(data["a"]) ?? ""
      let parameters: Properties = ["label": data["l"] ?? .null]
      return Decoded(
        kind: .identify, name: alias,
        call: CallDescription(method: "addAlias", name: alias, parameters: parameters),
        properties: parameters, read: textual("a").union(["l"]))
    default:
      let known = sdkEvents[code]
      var decoded = Decoded(
        kind: .event, name: known ?? code,
        call: CallDescription(method: "sdkEvent", name: known ?? code, parameters: data), properties: data,
        read: Set(data.keys), carried: Set(data.keys))
      if code == "sgu" {
        // A status neither `subscribed` nor `unsubscribed`: kept whole, and said.
        decoded.violations.append(
          RuleViolation(
            rule: "braze.subscription-status",
            message:
              "\(place) is a subscription group update (sgu) whose status Tagscope does not know; recorded as sent.",
            consequence: .degraded))
      }
      if known == nil {
        decoded.violations.append(
          RuleViolation(
            rule: "braze.unknown-event-type",
            message: "\(place) has the type code `\(code)`, which Tagscope does not know; recorded as sent.",
            consequence: .degraded))
      }
      return decoded
    }
  }

  /// A purchase's quantity as an integer when it is one (`1.0` too), else as sent (1 when absent).
  static func quantity(_ value: PropertyValue?) -> PropertyValue {
    switch value {
    case .double(let number)? where number.rounded() == number && abs(number) < 1e15: return .int(Int(number))
    case let value?: return value
    case nil: return .int(1)
    }
  }
}
