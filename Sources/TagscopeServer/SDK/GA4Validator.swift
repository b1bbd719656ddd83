import AnalyticsHub
import AnalyticsProviders

/// The Measurement Protocol validation server's checks: GA4's rules as the hub's Firebase rules
/// check them (``FirebaseNameProblem``, ``FirebaseLimits``), worded as the `validationMessages`
/// `/debug/mp/collect` returns.
enum GA4Validator {
  /// One validation message, as `/debug/mp/collect` returns it.
  struct Message: Sendable, Hashable {
    var fieldPath: String
    var description: String
    /// `VALUE_INVALID`, `VALUE_REQUIRED`, `NAME_INVALID`, `NAME_RESERVED`, `VALUE_OUT_OF_BOUNDS`,
    /// `EXCEEDED_MAX_ENTITIES` or `NAME_DUPLICATED`.
    var code: String

    /// The finding as the hub's violation type.
    func violation(consequence: RuleViolation.Consequence) -> RuleViolation {
      RuleViolation(rule: "ga4." + code.lowercased(), message: description, consequence: consequence)
    }
  }

  /// Messages about the whole request, and per event index.
  struct Result {
    var request: [Message] = []
    var perEvent: [Int: [Message]] = [:]
  }

  static func validate(_ body: Properties, query request: ReceivedRequest) -> Result {
    var result = Result()
    if request.queryValue("api_secret")?.isEmpty ?? true {
      result.request.append(
        Message(
          fieldPath: "api_secret",
          description: "Unable to find non-empty parameter [api_secret] value in request.",
          code: "VALUE_REQUIRED"))
    }
    let firebase = request.queryValue("firebase_app_id")
    if firebase == nil, request.queryValue("measurement_id")?.isEmpty ?? true {
      result.request.append(
        Message(
          fieldPath: "measurement_id",
          description: "Unable to find non-empty parameter [measurement_id] value in request.",
          code: "VALUE_REQUIRED"))
    }
    let idField = firebase == nil ? "client_id" : "app_instance_id"
    if (Payload.string(body[idField]) ?? "").isEmpty {
      result.request.append(
        Message(fieldPath: idField, description: "Measurement requires a \(idField).", code: "VALUE_REQUIRED")
      )
    }
    guard let events = Payload.array(body["events"]), !events.isEmpty else {
      result.request.append(
        Message(
          fieldPath: "events", description: "Measurement requires at least one event.", code: "VALUE_REQUIRED"
        ))
      return result
    }
    if events.count > FirebaseLimits.maximumEventsPerRequest {
      result.request.append(
        Message(
          fieldPath: "events",
          description:
            "Measurement has \(events.count) events; at most \(FirebaseLimits.maximumEventsPerRequest) are allowed.",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    result.request += validateUserProperties(Payload.object(body["user_properties"]))
    // Over the limit the request is refused whole: its events are not checked one by one (9,000
    // tiny events would otherwise make 9,000 messages).
    guard events.count <= FirebaseLimits.maximumEventsPerRequest else { return result }
    // An app stream (`firebase_app_id`) reserves the app SDK's event names, a web stream its own.
    let reserved = firebase == nil ? FirebaseLimits.webReservedEventNames : FirebaseLimits.reservedEventNames
    for (index, element) in events.enumerated() {
      let messages = validateEvent(Payload.object(element), index: index, reserved: reserved)
      if !messages.isEmpty { result.perEvent[index] = messages }
    }
    return result
  }

  static func validateEvent(_ event: Properties, index: Int, reserved: Set<String>) -> [Message] {
    var messages: [Message] = []
    let name = Payload.string(event["name"]) ?? ""
    switch FirebaseNameProblem.event(name, reserved: reserved) {
    case .malformed(.empty):
      return [
        Message(
          fieldPath: "events[\(index)].name", description: "Event at index: [\(index)] requires a name.",
          code: "VALUE_REQUIRED")
      ]
    case .malformed(let flaw):
      messages.append(
        Message(
          fieldPath: "events",
          description: "Event at index: [\(index)] has invalid name [\(name)]. \(describe(flaw))",
          code: "NAME_INVALID"))
    case .reservedPrefix, .reservedName:
      messages.append(
        Message(
          fieldPath: "events",
          description: "Event at index: [\(index)] has name [\(name)] which is reserved.",
          code: "NAME_RESERVED"))
    case nil:
      break
    }
    let params = Payload.object(event["params"])
    if FirebaseLimits.hasTooManyParameters(params.count) {
      messages.append(
        Message(
          fieldPath: "events[\(index)].params",
          description:
            "Event at index: [\(index)] has \(params.count) parameters; at most \(FirebaseLimits.maximumParameters).",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    for (key, value) in params {
      switch FirebaseNameProblem.parameter(key) {
      case .malformed(let flaw):
        messages.append(
          Message(
            fieldPath: "events[\(index)].params",
            description: "Event at index: [\(index)] has invalid parameter name [\(key)]. \(describe(flaw))",
            code: "NAME_INVALID"))
      case .reservedPrefix, .reservedName:
        messages.append(
          Message(
            fieldPath: "events[\(index)].params",
            description: "Event at index: [\(index)] has parameter name [\(key)] which is reserved.",
            code: "NAME_RESERVED"))
      case nil:
        break
      }
      if let text = value.stringValue, FirebaseLimits.overlongParameterValue(text) != nil {
        messages.append(
          Message(
            fieldPath: "events[\(index)].params.\(key)",
            description:
              "Event at index: [\(index)] has parameter [\(key)] with a value longer than \(FirebaseLimits.maximumStringValueLength) characters.",
            code: "VALUE_OUT_OF_BOUNDS"))
      }
    }
    return messages
  }

  static func validateUserProperties(_ properties: Properties) -> [Message] {
    var messages: [Message] = []
    if FirebaseLimits.hasTooManyUserProperties(properties.count) {
      messages.append(
        Message(
          fieldPath: "user_properties",
          description:
            "Measurement has \(properties.count) user properties; at most \(FirebaseLimits.maximumUserProperties).",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    for (key, value) in properties {
      switch FirebaseNameProblem.userProperty(key) {
      case .malformed:
        messages.append(
          Message(
            fieldPath: "user_properties", description: "User property name [\(key)] is invalid.",
            code: "NAME_INVALID"))
      case .reservedPrefix, .reservedName:
        messages.append(
          Message(
            fieldPath: "user_properties", description: "User property name [\(key)] is reserved.",
            code: "NAME_RESERVED"))
      case nil:
        break
      }
      let text = Payload.string(Payload.object(value)["value"]) ?? ""
      if FirebaseLimits.overlongUserPropertyValue(text) != nil {
        messages.append(
          Message(
            fieldPath: "user_properties.\(key)",
            description:
              "User property [\(key)] has a value longer than \(FirebaseLimits.maximumUserPropertyValueLength) characters.",
            code: "VALUE_OUT_OF_BOUNDS"))
      }
    }
    return messages
  }

  /// The validation server's words for a malformed event or parameter name.
  static func describe(_ flaw: FirebaseNameProblem.Flaw) -> String {
    switch flaw {
    case .empty, .notStartingWithLetter: "Names must start with an alphabetic character."
    case .invalidCharacters: "Names may only contain alpha-numeric characters and underscores."
    case .tooLong: "Names must be \(FirebaseLimits.maximumNameLength) characters or fewer."
    }
  }
}
