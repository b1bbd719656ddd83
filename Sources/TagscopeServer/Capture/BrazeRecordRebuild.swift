import AnalyticsHub
import TagscopeRecording

/// A Braze record as the event object or attribute object its SDK sent (the inverse of
/// ``BrazeEvents``): an event record's message with what its call holds put back in its `data`
/// (a custom event's properties `p`, a purchase's properties `pr`, an SDK event's data), an
/// attribute record as the attribute it sets.
enum BrazeRecordRebuild {
  /// What one record gives its request.
  enum Part {
    /// An object of the request's `events`.
    case event(Properties)
    /// One attribute of an object of its `attributes`: a custom one (under `custom`) or a
    /// standard one, of the object `owner` (its `user_id`, when sent).
    case attribute(key: String, value: PropertyValue, custom: Bool, owner: Properties)
  }

  /// The part `output` gives its request, or why it gives none.
  static func part(of output: ProviderOutput) -> Result<Part, HARRequestRebuild.NotRebuilt> {
    guard let call = output.calls.first else { return .failure(.init(reason: "it has no call")) }
    guard output.extra["unread"] == nil else { return .failure(HARRequestRebuild.unread) }
    let message = output.extra["message"].flatMap(Payload.objectOrNil) ?? [:]
    let attribute = { (custom: Bool, value: PropertyValue) -> Result<Part, HARRequestRebuild.NotRebuilt> in
      guard let key = call.name else { return .failure(.init(reason: "its attribute has no name")) }
      return .success(.attribute(key: key, value: value, custom: custom, owner: message))
    }
    switch call.method {
    case "setCustomAttribute" where message["name"] == nil:
      return attribute(true, call.parameters["value"] ?? .null)
    case "unsetCustomAttribute" where message["name"] == nil:
      return attribute(true, .null)
    case "set" where message["name"] == nil:
      return attribute(false, call.parameters["value"] ?? .null)
    default:
      guard message["name"] != nil else {
        return .failure(.init(reason: "it keeps no message (its event object as sent)"))
      }
      return .success(.event(event(message, call)))
    }
  }

  /// The event object `message` (as sent but what `call` holds) whole again.
  private static func event(_ message: Properties, _ call: CallDescription) -> Properties {
    guard case .object(var data) = message["data"] ?? .object([:]) else { return message }
    let parameters = call.parameters
    switch call.method {
    case "logCustomEvent" where data["p"] == nil && !parameters.isEmpty:
      data["p"] = .object(parameters)
    case "logPurchase" where data["pr"] == nil:
      // `currency`, `price` and `quantity` are read from `c`, `p` and `q`; one the properties
      // replaced (or that reads otherwise) goes back in them.
      let read: Properties = [
        "currency": data["c"] ?? .null,
        "price": data["p"]?.doubleValue.map(PropertyValue.double) ?? data["p"] ?? .null,
        "quantity": BrazeEvents.quantity(data["q"]),
      ]
      let properties = Properties(parameters.filter { read[$0.key] != $0.value }.map { ($0.key, $0.value) })
      if !properties.isEmpty { data["pr"] = .object(properties) }
    case "sdkEvent":
      data.merge(parameters.map { ($0.key, $0.value) })
    default:
      break
    }
    guard message["data"] != nil || !data.isEmpty else { return message }
    var event = message
    event["data"] = .object(data)
    return event
  }
}
