import AnalyticsHub

/// How a provider module's typed calls are built from a planned call: the call type, the
/// namespace whose `provider(…)` attaches its rules, and per SDK method the case that records that
/// method. A provider this does not know, or a planned call none of its cases records (an unknown
/// method, a call without a name), is mapped to ``CallDescription`` instead.
struct ProviderCallStyle {
  /// What a builder gets: the call's name literal, the parameters expression, the value a
  /// one-value call (a user property) sets, and the FPTI envelope.
  struct Parts {
    var name: String?
    var parameters: String
    var value: String
    var eventType: String
    var category: String
  }

  var callType: String
  /// `Firebase`: the namespace with `provider(environment:adapter:mapping:)`; `nil` for a
  /// ``CallDescription`` provider.
  var namespace: String?
  /// The method a call without one gets.
  var defaultMethod: String
  /// Per method, the call expression, or `nil` when the parts do not make one.
  var builders: [String: (Parts) -> String?]

  /// The expression of a call with `method` (or the default), or `nil` when this style cannot
  /// record it.
  func expression(method: String?, parts: Parts) -> String? {
    builders[method ?? defaultMethod].flatMap { $0(parts) }
  }

  /// The style of a provider id, `nil` for one without a module (or `CallDescription`).
  static func known(_ provider: String) -> ProviderCallStyle? {
    switch provider {
    case "firebase":
      return ProviderCallStyle(
        callType: "FirebaseCall", namespace: "Firebase", defaultMethod: "logEvent",
        builders: [
          "logEvent": { parts in parts.name.map { ".logEvent(\($0), \(parts.parameters))" } },
          "setUserProperty": { parts in
            parts.name.map { ".setUserProperty(\(parts.value).displayText, forName: \($0))" }
          },
        ])
    case "amplitude":
      return ProviderCallStyle(
        callType: "AmplitudeCall", namespace: "Amplitude", defaultMethod: "track",
        builders: [
          "track": { parts in
            parts.name.map { ".track(eventType: \($0), eventProperties: \(parts.parameters))" }
          },
          "identify": { parts in ".identify(userProperties: \(parts.parameters))" },
        ])
    case "segment":
      return ProviderCallStyle(
        callType: "SegmentCall", namespace: "Segment", defaultMethod: "track",
        builders: [
          "track": { parts in parts.name.map { ".track(name: \($0), properties: \(parts.parameters))" } },
          "screen": { parts in
            parts.name.map { ".screen(title: \($0), category: nil, properties: \(parts.parameters))" }
          },
          "identify": { parts in parts.name.map { ".identify(userId: \($0), traits: \(parts.parameters))" } },
          "group": { parts in parts.name.map { ".group(groupId: \($0), traits: \(parts.parameters))" } },
          "alias": { parts in parts.name.map { ".alias(newId: \($0))" } },
        ])
    case "mixpanel":
      return ProviderCallStyle(
        callType: "MixpanelCall", namespace: "Mixpanel", defaultMethod: "track",
        builders: [
          "track": { parts in parts.name.map { ".track(event: \($0), properties: \(parts.parameters))" } },
          "people.set": { parts in parts.name == nil ? ".peopleSet(\(parts.parameters))" : nil },
          "registerSuperProperties": { parts in
            parts.name == nil ? ".registerSuperProperties(\(parts.parameters))" : nil
          },
        ])
    case "braze":
      return ProviderCallStyle(
        callType: "BrazeCall", namespace: "Braze", defaultMethod: "logCustomEvent",
        builders: [
          "logCustomEvent": { parts in
            parts.name.map { ".logCustomEvent(name: \($0), properties: \(parts.parameters))" }
          },
          "setCustomAttribute": { parts in
            parts.name.map { ".setCustomAttribute(key: \($0), value: \(parts.value))" }
          },
        ])
    case "piano":
      return ProviderCallStyle(
        callType: "PianoCall", namespace: "Piano", defaultMethod: "sendEvent",
        builders: [
          "sendEvent": { parts in
            parts.name.map { ".sendEvent(name: \($0), properties: \(parts.parameters))" }
          }
        ])
    case "fpti":
      return ProviderCallStyle(
        callType: "FPTICall", namespace: "FPTI", defaultMethod: "event",
        builders: [
          "event": { parts in
            parts.name.map {
              ".event(name: \($0), category: \(parts.category), type: \(parts.eventType), properties: \(parts.parameters))"
            }
          }
        ])
    default:
      return nil
    }
  }

  /// The ``CallDescription`` style: any method, any name.
  static var described: ProviderCallStyle {
    ProviderCallStyle(
      callType: "CallDescription", namespace: nil, defaultMethod: "track", builders: [:])
  }

  /// The ``CallDescription`` expression of a call.
  static func description(method: String?, parts: Parts) -> String {
    let name = parts.name.map { "name: \($0), " } ?? ""
    return
      "CallDescription(method: \(SwiftLiteral.string(method ?? "track")), \(name)parameters: \(parts.parameters))"
  }

  /// FPTI's `EventType` case for an `e` code (`cl` → `.click`).
  static func eventTypeCase(_ code: String) -> String? {
    EventType(rawValue: code).map { ".\($0)" }
  }
}
