import AnalyticsHub
import Foundation
import TagscopeRecording

/// What the Braze and Piano Analytics SDKs put on the wire for the calls an in-app hub gave them,
/// built as their published sources build it (test-only), for ``BrazePianoAgreementTests``.
///
/// - Braze: braze-inc/braze-roku-sdk `sdk_files/source/BrazeSDK.brs` @ 0d97001684dab47d28580ea61fdd1076e9c6bac8
///   (`createCustomEventEvent`, `createPurchaseEvent`, `createIncrementCustomAttributeEvent`,
///   `createAttributeObject`, `generateRequiredRequestFields`): `changeUser` sends nothing of its
///   own, it names the user of what follows.
/// - Piano: at-internet/piano-analytics-android @ f3351cb99253fe82db771acfb54aacdbf2582380
///   (`model/EventsRequest.kt`, the event processors' properties): `setUser` and
///   `privacySetMode` send nothing of their own, they add `user_id`, `user_category` and
///   `visitor_privacy_mode` to what follows. `setProperty`'s properties ride on the events that
///   follow too, where nothing tells them from the event's own: not emulated (they would show as
///   parameters of those events).
struct BrazePianoWireSDK {
  /// The in-app calls with a message of their own on the wire, by provider.
  static let wireMethods: [String: Set<String>] = [
    "braze": [
      "logCustomEvent", "logPurchase", "setCustomAttribute", "unsetCustomAttribute",
      "incrementCustomUserAttribute",
    ],
    "piano": ["sendEvent"],
  ]

  let deviceID = "7c1d2e3f-4a5b-4c6d-8e7f-9a0b1c2d3e4f"
  private var brazeUser: String?
  private var pianoUser: (id: String, category: String?)?
  private var privacyMode = "optin"
  private(set) var brazeItems: [(events: [PropertyValue], attributes: [PropertyValue])] = []
  private(set) var pianoEvents: [PropertyValue] = []

  /// Notes one in-app call of `provider`, made at `time` in `session`.
  mutating func add(_ call: CallDescription, provider: String, time: Date, session: String) {
    switch provider {
    case "braze": addBraze(call, time: time, session: session)
    case "piano": addPiano(call, time: time, session: session)
    default: break
    }
  }

  private mutating func addBraze(_ call: CallDescription, time: Date, session: String) {
    let name = call.name ?? ""
    func event(_ code: String, _ data: Properties) -> PropertyValue {
      var event: Properties = [
        "name": .string(code), "data": .object(data), "time": .double(time.timeIntervalSince1970),
        "session_id": .string(session),
      ]
      if let brazeUser { event["user_id"] = .string(brazeUser) }
      return .object(event)
    }
    func attribute(_ value: PropertyValue) -> PropertyValue {
      var object: Properties = ["custom": .object([name: value])]
      if let brazeUser { object["user_id"] = .string(brazeUser) }
      return .object(object)
    }
    switch call.method {
    case "changeUser": brazeUser = name
    case "logCustomEvent":
      brazeItems.append(([event("ce", ["n": .string(name), "p": .object(call.parameters)])], []))
    case "logPurchase":
      var properties = call.parameters
      let purchase: Properties = [
        "pid": .string(name), "c": properties["currency"] ?? .null, "p": properties["price"] ?? .null,
        "q": properties["quantity"] ?? .null,
      ]
      for key in ["currency", "price", "quantity"] { properties[key] = nil }
      brazeItems.append(([event("p", purchase.merging(["pr": .object(properties)]))], []))
    case "incrementCustomUserAttribute":
      brazeItems.append(
        ([event("inc", ["key": .string(name), "value": call.parameters["by"] ?? .int(1)])], []))
    case "setCustomAttribute": brazeItems.append(([], [attribute(call.parameters["value"] ?? .null)]))
    case "unsetCustomAttribute": brazeItems.append(([], [attribute(.null)]))
    default: break
    }
  }

  private mutating func addPiano(_ call: CallDescription, time: Date, session: String) {
    switch call.method {
    case "setUser":
      pianoUser = (call.name ?? "", call.parameters["category"]?.stringValue)
    case "deleteUser": pianoUser = nil
    case "privacySetMode": privacyMode = call.name ?? privacyMode
    case "sendEvent":
      var data = call.parameters
      data.merge([
        ("app_id", "com.example.podcasts"), ("app_version", "1.0"), ("app_sessionid", .string(session)),
        ("device_model", "Pixel 7"), ("device_manufacturer", "Google"), ("os", "android 14"),
        ("os_group", "android"),
        ("device_timestamp_utc", .int(Int(time.timeIntervalSince1970))),
        ("event_collection_platform", "android"),
        ("event_collection_version", "3.4.0"), ("visitor_privacy_mode", .string(privacyMode)),
      ])
      if let pianoUser {
        data.merge([("user_id", .string(pianoUser.id)), ("user_recognition", .bool(false))])
        if let category = pianoUser.category { data.merge([("user_category", .string(category))]) }
      }
      pianoEvents.append(.object(["name": .string(call.name ?? ""), "data": .object(data)]))
    default: break
    }
  }

  /// Braze's request bodies, at most 50 events and attributes each, with the request's fields.
  var brazeBodies: [String] {
    stride(from: 0, to: brazeItems.count, by: 50).map { start in
      let items = brazeItems[start..<min(start + 50, brazeItems.count)]
      let request: Properties = [
        "api_key": "agreement-key", "device_id": .string(deviceID), "time": 1_795_255_200,
        "sdk_version": "11.0.0",
        "events": .array(items.flatMap(\.events)), "attributes": .array(items.flatMap(\.attributes)),
      ]
      return JSONText.string(request)
    }
  }

  /// Piano's request bodies, at most 50 events each (`SendTask.kt`'s chunks).
  var pianoBodies: [String] {
    stride(from: 0, to: pianoEvents.count, by: 50).map { start in
      JSONText.string(["events": .array(Array(pianoEvents[start..<min(start + 50, pianoEvents.count)]))])
    }
  }
}
