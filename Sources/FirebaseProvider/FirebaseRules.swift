import AnalyticsHub
import AnalyticsProvidersCore

/// The `firebase_error` codes Firebase Analytics logs when it rejects part of a call.
///
/// Source: Firebase, "Analytics error codes", https://firebase.google.com/docs/analytics/errors
/// (table: code, cause, result).
public enum FirebaseErrorCode: Int, Sendable, CaseIterable {
  /// Event name invalid (empty, too long, invalid characters): event ignored, error event logged.
  case invalidEventName = 2
  /// Parameter name invalid: the parameter is replaced by `firebase_error`/`firebase_error_value`.
  case invalidParameterName = 3
  /// Parameter value too long: the parameter is dropped, `firebase_error` added to the event.
  case parameterValueTooLong = 4
  /// More than 25 parameters: extra parameters dropped, `firebase_error` added.
  case tooManyParameters = 5
  /// User property name invalid: the change is ignored, error event logged.
  case invalidUserPropertyName = 6
  /// User property value too long: the change is ignored, error event logged.
  case userPropertyValueTooLong = 7
  /// More than 500 distinct event types for the app instance: extra events dropped.
  case tooManyEventTypes = 8
  /// More than 25 distinct user properties for the app instance: the change is ignored.
  case tooManyUserProperties = 9
  /// Reserved event name: the event is ignored, error event logged.
  case reservedEventName = 13
  /// Reserved parameter name: the parameter is replaced by `firebase_error`.
  case reservedParameterName = 14
  /// Reserved user property name: the change is ignored, error event logged.
  case reservedUserPropertyName = 15
}

/// Firebase Analytics' documented limits, checked on every call.
///
/// Sources (consulted for this implementation):
/// - [FIR] `FIRAnalytics` iOS reference, `logEventWithName:parameters:` and
///   `setUserPropertyString:forName:`,
///   https://firebase.google.com/docs/reference/ios/firebaseanalytics/interface_f_i_r_analytics —
///   event names 1–40 alphanumeric/underscore starting with a letter, prefixes `firebase_`,
///   `google_`, `ga_` reserved, the reserved event list below ("events with these names will be
///   dropped, and instead an error event will be logged"), ≤ 25 parameters, parameter names ≤ 40,
///   string values ≤ 100, only NSString/NSNumber values; user property names 1–24, values ≤ 36.
/// - [ERR] "Analytics error codes", https://firebase.google.com/docs/analytics/errors — the
///   `firebase_error` code and the result of each failure.
/// - [GA] Google Analytics Help, "Event naming rules" (answer 13316687) and "Event collection
///   limits" (answer 9267744) — reserved user property names, the 500 event types and 25 user
///   properties per app instance.
/// - [MP] GA4 Measurement Protocol, "Send user properties" — reserved user property names.
/// - [SV] Firebase, "Measure screenviews" — `screen_view` with `screen_name`/`screen_class`.
public enum FirebaseRules: ProviderRuleSet {
  public static let providerID: ProviderID = "firebase"

  public static func check<Call: ProviderCall>(_ calls: [Call], into violations: inout [RuleViolation]) {
    var usage = FirebaseUsage()
    check(calls, usage: &usage, into: &violations)
  }

  /// Checks `calls`, counting distinct event and user property names in `usage` so the 501st event
  /// type and the 26th user property are reported across tags.
  public static func check<Call: ProviderCall>(
    _ calls: [Call], usage: inout FirebaseUsage, into violations: inout [RuleViolation]
  ) {
    for index in calls.indices {
      let call = calls[index]
      switch call.method {
      case "logEvent":
        checkEvent(call.name ?? "", call.parameters, index: index, usage: &usage, into: &violations)
      case "setDefaultEventParameters":
        checkParameters(call.parameters, event: "default parameters", index: index, into: &violations)
      case "setUserProperty":
        checkUserProperty(call, index: index, usage: &usage, into: &violations)
      case "setUserID":
        checkUserID(call.name, index: index, into: &violations)
      default:
        break
      }
    }
  }

  // MARK: Events

  static func checkEvent(
    _ name: String, _ parameters: Properties, index: Int, usage: inout FirebaseUsage,
    into violations: inout [RuleViolation]
  ) {
    switch FirebaseNameProblem.event(name) {
    case .malformed(.empty), .malformed(.tooLong):
      // [FIR] 1–40 characters; [ERR] code 2.
      violations.append(
        RuleViolation(
          rule: "firebase.event-name-length",
          message:
            "logEvent '\(TextChecks.excerpt(name))': event name is \(FirebaseLimits.length(name)) characters; Firebase "
            + "allows 1 to \(FirebaseLimits.maximumNameLength). The event is dropped and a firebase_error event (code 2) "
            + "is logged instead",
          consequence: .replaced, callIndex: index, errorCode: FirebaseErrorCode.invalidEventName.rawValue))
    case .malformed(.notStartingWithLetter), .malformed(.invalidCharacters):
      // [FIR] alphanumeric characters or underscores, starting with a letter; [ERR] code 2.
      violations.append(
        RuleViolation(
          rule: "firebase.event-name-characters",
          message:
            "logEvent '\(TextChecks.excerpt(name))': event names may only contain letters, digits and "
            + "underscores and must start with a letter. The event is dropped and a firebase_error event "
            + "(code 2) is logged instead",
          consequence: .replaced, callIndex: index, errorCode: FirebaseErrorCode.invalidEventName.rawValue))
    case .reservedPrefix(let prefix):
      // [FIR] reserved prefixes. Which code fires is not stated by [ERR]; 13 ("event name is
      // reserved") is our reading, not confirmed.
      violations.append(
        RuleViolation(
          rule: "firebase.event-name-reserved-prefix",
          message:
            "logEvent '\(name)': the prefix '\(prefix)' is reserved by Firebase. The event is dropped and a "
            + "firebase_error event is logged instead",
          consequence: .replaced, callIndex: index, errorCode: FirebaseErrorCode.reservedEventName.rawValue))
    case .reservedName:
      // [FIR] reserved names; [ERR] code 13.
      violations.append(
        RuleViolation(
          rule: "firebase.event-name-reserved",
          message:
            "logEvent '\(name)': this event name is reserved by Firebase. The event is dropped and a "
            + "firebase_error event (code 13) is logged instead",
          consequence: .replaced, callIndex: index, errorCode: FirebaseErrorCode.reservedEventName.rawValue))
    case nil:
      guard !usage.admitEvent(name) else { break }
      // [GA] 500 distinctly named events per app instance; [ERR] code 8.
      violations.append(
        RuleViolation(
          rule: "firebase.event-type-count",
          message:
            "logEvent '\(name)': this would be event type \(FirebaseLimits.maximumEventTypes + 1) for this app instance; Firebase "
            + "keeps \(FirebaseLimits.maximumEventTypes). The event is dropped and a firebase_error event (code 8) is logged",
          consequence: .dropped, callIndex: index, errorCode: FirebaseErrorCode.tooManyEventTypes.rawValue))
    }
    if name == "screen_view", parameters["screen_name"] == nil {
      // [SV] screen views are reported by screen_name; without it GA4 shows "(not set)".
      violations.append(
        RuleViolation(
          rule: "firebase.screen-view-name",
          message:
            "logEvent 'screen_view' without a screen_name parameter: the screen is reported as '(not set)'",
          consequence: .degraded, callIndex: index))
    }
    checkParameters(
      parameters, event: "logEvent '\(TextChecks.excerpt(name))'", index: index, into: &violations)
  }

  static func checkParameters(
    _ parameters: Properties, event: @autoclosure () -> String, index: Int,
    into violations: inout [RuleViolation]
  ) {
    if FirebaseLimits.hasTooManyParameters(parameters.count) {
      // [FIR] up to 25 parameters; [ERR] code 5.
      violations.append(
        RuleViolation(
          rule: "firebase.parameter-count",
          message:
            "\(event()): \(parameters.count) parameters; Firebase keeps \(FirebaseLimits.maximumParameters). The extra "
            + "\(parameters.count - FirebaseLimits.maximumParameters) are dropped and a firebase_error parameter (code 5) is added",
          consequence: .dropped, callIndex: index, errorCode: FirebaseErrorCode.tooManyParameters.rawValue))
    }
    for (key, value) in parameters {
      switch FirebaseNameProblem.parameter(key) {
      case .malformed:
        // [FIR] parameter names up to 40 characters, alphanumeric/underscore, starting with a
        // letter; [ERR] code 3.
        violations.append(
          RuleViolation(
            rule: "firebase.parameter-name",
            message:
              "\(event()): parameter name '\(TextChecks.excerpt(key))' must be 1 to \(FirebaseLimits.maximumNameLength) letters, "
              + "digits or underscores starting with a letter. It is replaced by a firebase_error parameter "
              + "(code 3)",
            consequence: .replaced, callIndex: index,
            errorCode: FirebaseErrorCode.invalidParameterName.rawValue))
      case .reservedPrefix(let prefix):
        // [FIR] reserved prefixes for parameter names; [ERR] code 14.
        violations.append(
          RuleViolation(
            rule: "firebase.parameter-name-reserved",
            message:
              "\(event()): parameter '\(key)' uses the reserved prefix '\(prefix)'. It is replaced by a "
              + "firebase_error parameter (code 14)",
            consequence: .replaced, callIndex: index,
            errorCode: FirebaseErrorCode.reservedParameterName.rawValue))
      case .reservedName, nil:  // no parameter name is reserved whole, only prefixes
        break
      }
      switch value {
      case .string(let text):
        if let valueLength = FirebaseLimits.overlongParameterValue(text) {
          // [FIR] string parameter values up to 100 characters; [ERR] code 4.
          violations.append(
            RuleViolation(
              rule: "firebase.parameter-value-length",
              message:
                "\(event()): parameter '\(key)' is \(valueLength) characters; Firebase allows "
                + "\(FirebaseLimits.maximumStringValueLength). The parameter is dropped and a firebase_error parameter (code 4) "
                + "is added",
              consequence: .dropped, callIndex: index,
              errorCode: FirebaseErrorCode.parameterValueTooLong.rawValue))
        }
      case .int, .double, .bool:
        break
      case .array where key == "items":
        break
      case .date, .array, .object, .null, .largeInteger:
        // A large integer is past the signed 64 bits NSNumber parameters carry.
        // [FIR] "Only NSString and NSNumber (signed 64-bit integer and 64-bit floating-point number)
        // parameter types are supported" (arrays only for `items`). The SDK's exact handling of
        // other types (dropped with a console warning) is not confirmed by [ERR]; no code given.
        violations.append(
          RuleViolation(
            rule: "firebase.parameter-value-type",
            message:
              "\(event()): parameter '\(key)' is a \(value.typeName) value; Firebase only takes strings and "
              + "numbers (and an 'items' array). The parameter is not logged",
            consequence: .dropped, callIndex: index))
      }
    }
  }

  // MARK: User properties and identity

  static func checkUserProperty<Call: ProviderCall>(
    _ call: Call, index: Int, usage: inout FirebaseUsage, into violations: inout [RuleViolation]
  ) {
    let name = call.name ?? ""
    switch FirebaseNameProblem.userProperty(name) {
    case .malformed:
      // [FIR] user property names 1–24 alphanumeric/underscore starting with a letter; [ERR] 6.
      violations.append(
        RuleViolation(
          rule: "firebase.user-property-name",
          message:
            "setUserProperty '\(TextChecks.excerpt(name))': names must be 1 to \(FirebaseLimits.maximumUserPropertyNameLength) "
            + "letters, digits or underscores starting with a letter (this one is \(FirebaseLimits.length(name)) "
            + "characters). The change is ignored and a firebase_error event (code 6) is logged",
          consequence: .replaced, callIndex: index,
          errorCode: FirebaseErrorCode.invalidUserPropertyName.rawValue))
      return
    case .reservedPrefix, .reservedName:
      // [FIR]/[GA]/[MP] reserved names and prefixes; [ERR] code 15.
      violations.append(
        RuleViolation(
          rule: "firebase.user-property-reserved",
          message:
            "setUserProperty '\(name)': this user property name is reserved by Firebase. The change is "
            + "ignored and a firebase_error event (code 15) is logged",
          consequence: .replaced, callIndex: index,
          errorCode: FirebaseErrorCode.reservedUserPropertyName.rawValue))
      return
    case nil:
      break
    }
    if case .string(let value) = call.parameters["value"] ?? .null,
      let valueLength = FirebaseLimits.overlongUserPropertyValue(value)
    {
      // [FIR] values up to 36 characters; [ERR] code 7.
      violations.append(
        RuleViolation(
          rule: "firebase.user-property-value-length",
          message:
            "setUserProperty '\(name)': value '\(TextChecks.excerpt(value))' is \(valueLength) characters; "
            + "Firebase allows \(FirebaseLimits.maximumUserPropertyValueLength). The change is ignored and a firebase_error "
            + "event (code 7) is logged",
          consequence: .replaced, callIndex: index,
          errorCode: FirebaseErrorCode.userPropertyValueTooLong.rawValue))
      return
    }
    if !usage.admitUserProperty(name) {
      // [GA] 25 user properties per app instance; [ERR] code 9.
      violations.append(
        RuleViolation(
          rule: "firebase.user-property-count",
          message:
            "setUserProperty '\(name)': this would be user property \(FirebaseLimits.maximumUserProperties + 1) of this app "
            + "instance; Firebase keeps \(FirebaseLimits.maximumUserProperties). The change is ignored and a firebase_error event "
            + "(code 9) is logged",
          consequence: .dropped, callIndex: index, errorCode: FirebaseErrorCode.tooManyUserProperties.rawValue
        ))
    }
  }

  static func checkUserID(_ id: String?, index: Int, into violations: inout [RuleViolation]) {
    guard let id else { return }
    let length = FirebaseLimits.length(id)
    if length == 0 || length > FirebaseLimits.maximumUserIDLength {
      // [FIR] setUserID: "must be non-empty and no more than 256 characters long". What the SDK
      // does with a longer ID (ignored, with a console warning) is not confirmed; no error code.
      violations.append(
        RuleViolation(
          rule: "firebase.user-id-length",
          message:
            "setUserID: the user ID is \(length) characters; Firebase takes 1 to \(FirebaseLimits.maximumUserIDLength) (use nil to "
            + "clear it). The user ID is not set",
          consequence: .dropped, callIndex: index))
    }
  }
}
