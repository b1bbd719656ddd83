import AnalyticsHub

/// Google's documented Measurement Protocol limits and reserved names, as the validation server
/// checks them.
enum GA4Validator {
  /// One validation message, as `/debug/mp/collect` returns it.
  struct Message: Sendable, Hashable {
    var fieldPath: String
    var description: String
    /// `VALUE_INVALID`, `VALUE_REQUIRED`, `NAME_INVALID`, `NAME_RESERVED`, `VALUE_OUT_OF_BOUNDS`,
    /// `EXCEEDED_MAX_ENTITIES` or `NAME_DUPLICATED`.
    var code: String

    func violation(consequence: String) -> IngestedViolation {
      IngestedViolation(rule: "ga4." + code.lowercased(), message: description, consequence: consequence)
    }
  }

  /// Messages about the whole request, and per event index.
  struct Result {
    var request: [Message] = []
    var perEvent: [Int: [Message]] = [:]
  }

  static let maximumEvents = 25
  static let maximumParameters = 25
  static let maximumUserProperties = 25
  static let maximumNameLength = 40
  static let maximumParameterValueLength = 100
  static let maximumUserPropertyNameLength = 24
  static let maximumUserPropertyValueLength = 36

  static let reservedEventNames: Set<String> = [
    "ad_activeview", "ad_click", "ad_exposure", "ad_query", "ad_reward", "adunit_exposure", "app_background",
    "app_clear_data", "app_exception", "app_install", "app_remove", "app_store_refund", "app_update",
    "app_upgrade", "dynamic_link_app_open", "dynamic_link_app_update", "dynamic_link_first_open", "error",
    "firebase_campaign", "firebase_in_app_message_action", "firebase_in_app_message_dismiss",
    "firebase_in_app_message_impression", "first_open", "first_visit", "in_app_purchase",
    "notification_dismiss", "notification_foreground", "notification_open", "notification_receive",
    "os_update", "session_start", "session_start_with_rollout", "user_engagement",
  ]
  static let reservedUserPropertyNames: Set<String> = [
    "first_open_time", "first_visit_time", "last_deep_link_referrer", "user_id", "first_open_after_install",
  ]
  static let reservedPrefixes = ["google_", "ga_", "firebase_"]

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
    if events.count > maximumEvents {
      result.request.append(
        Message(
          fieldPath: "events",
          description: "Measurement has \(events.count) events; at most \(maximumEvents) are allowed.",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    result.request += validateUserProperties(Payload.object(body["user_properties"]))
    for (index, element) in events.enumerated() {
      let messages = validateEvent(Payload.object(element), index: index)
      if !messages.isEmpty { result.perEvent[index] = messages }
    }
    return result
  }

  static func validateEvent(_ event: Properties, index: Int) -> [Message] {
    var messages: [Message] = []
    let name = Payload.string(event["name"]) ?? ""
    if name.isEmpty {
      return [
        Message(
          fieldPath: "events[\(index)].name", description: "Event at index: [\(index)] requires a name.",
          code: "VALUE_REQUIRED")
      ]
    }
    if let problem = nameProblem(name) {
      messages.append(
        Message(
          fieldPath: "events",
          description: "Event at index: [\(index)] has invalid name [\(name)]. \(problem)",
          code: "NAME_INVALID"))
    } else if reservedEventNames.contains(name) || hasReservedPrefix(name) {
      messages.append(
        Message(
          fieldPath: "events",
          description: "Event at index: [\(index)] has name [\(name)] which is reserved.",
          code: "NAME_RESERVED"))
    }
    let params = Payload.object(event["params"])
    if params.count > maximumParameters {
      messages.append(
        Message(
          fieldPath: "events[\(index)].params",
          description:
            "Event at index: [\(index)] has \(params.count) parameters; at most \(maximumParameters).",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    for (key, value) in params {
      if let problem = nameProblem(key) {
        messages.append(
          Message(
            fieldPath: "events[\(index)].params",
            description: "Event at index: [\(index)] has invalid parameter name [\(key)]. \(problem)",
            code: "NAME_INVALID"))
      } else if key == "firebase_conversion" || hasReservedPrefix(key) {
        messages.append(
          Message(
            fieldPath: "events[\(index)].params",
            description: "Event at index: [\(index)] has parameter name [\(key)] which is reserved.",
            code: "NAME_RESERVED"))
      }
      if let text = value.stringValue, text.count > maximumParameterValueLength {
        messages.append(
          Message(
            fieldPath: "events[\(index)].params.\(key)",
            description:
              "Event at index: [\(index)] has parameter [\(key)] with a value longer than \(maximumParameterValueLength) characters.",
            code: "VALUE_OUT_OF_BOUNDS"))
      }
    }
    return messages
  }

  static func validateUserProperties(_ properties: Properties) -> [Message] {
    var messages: [Message] = []
    if properties.count > maximumUserProperties {
      messages.append(
        Message(
          fieldPath: "user_properties",
          description:
            "Measurement has \(properties.count) user properties; at most \(maximumUserProperties).",
          code: "EXCEEDED_MAX_ENTITIES"))
    }
    for (key, value) in properties {
      if key.count > maximumUserPropertyNameLength || nameProblem(key) != nil {
        messages.append(
          Message(
            fieldPath: "user_properties", description: "User property name [\(key)] is invalid.",
            code: "NAME_INVALID"))
      } else if reservedUserPropertyNames.contains(key) || hasReservedPrefix(key) {
        messages.append(
          Message(
            fieldPath: "user_properties", description: "User property name [\(key)] is reserved.",
            code: "NAME_RESERVED"))
      }
      let text = Payload.string(Payload.object(value)["value"]) ?? ""
      if text.count > maximumUserPropertyValueLength {
        messages.append(
          Message(
            fieldPath: "user_properties.\(key)",
            description:
              "User property [\(key)] has a value longer than \(maximumUserPropertyValueLength) characters.",
            code: "VALUE_OUT_OF_BOUNDS"))
      }
    }
    return messages
  }

  /// Why `name` is not a valid event or parameter name, or `nil`.
  static func nameProblem(_ name: String) -> String? {
    guard let first = name.unicodeScalars.first, first.isASCIIAlpha else {
      return "Names must start with an alphabetic character."
    }
    guard name.unicodeScalars.allSatisfy({ $0.isASCIIAlpha || ("0"..."9").contains($0) || $0 == "_" }) else {
      return "Names may only contain alpha-numeric characters and underscores."
    }
    guard name.count <= maximumNameLength else {
      return "Names must be \(maximumNameLength) characters or fewer."
    }
    return nil
  }

  static func hasReservedPrefix(_ name: String) -> Bool { reservedPrefixes.contains { name.hasPrefix($0) } }
}

extension Unicode.Scalar {
  fileprivate var isASCIIAlpha: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
}
