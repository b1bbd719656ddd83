import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeServer

/// What the ledger reads of one call to match it: its provider and name (the index), a
/// fingerprint of its parameters, its ids and its device.
struct DeliveryFacts {
  /// `provider` and `name`, the matching index.
  var key: String
  /// The parameters' fingerprint (order of keys ignored, numbers compared as numbers); a wire
  /// call whose properties Tagscope does not map has none, and matches on the key alone.
  var fingerprint: Int?
  /// The SDK message ids the call carries (an in-app call whose adapter read them back).
  var ids: [String]
  /// The user the hub or the SDK says it is for, when it says.
  var user: String?

  /// The facts of in-app call `call` of `provider` made while `user` was signed in.
  init(inApp call: CallDescription, provider: String, user: String?) {
    key = provider + "\u{1F}" + (call.name ?? call.method)
    fingerprint = Self.fingerprint(call.parameters)
    ids = RecordedMessages.messageIDs(provider: provider, call: call, raw: "")
    self.user = user
  }

  /// The facts of wire call `call` of `provider` (its parameters the SDK's whole message).
  init(wire call: CallDescription, provider: String, raw: String, user: String?) {
    key = provider + "\u{1F}" + (call.name ?? call.method)
    fingerprint = RecordedMessages.properties(provider: provider, call: call).map(Self.fingerprint)
    ids = RecordedMessages.messageIDs(provider: provider, call: call, raw: raw)
    self.user = user
  }

  /// The same fingerprint for the same properties in any key order, `1830` and `1830.0` alike.
  static func fingerprint(_ properties: Properties) -> Int {
    var total = 0
    for (key, value) in properties {
      var hasher = Hasher()
      hasher.combine(key)
      combine(value, into: &hasher)
      total = total &+ hasher.finalize()
    }
    return total
  }

  private static func combine(_ value: PropertyValue, into hasher: inout Hasher) {
    switch value {
    case .int, .double, .largeInteger:
      hasher.combine(0)
      hasher.combine(value.doubleValue)
    case .string(let text):
      hasher.combine(1)
      hasher.combine(text)
    case .date(let date):
      hasher.combine(1)
      hasher.combine(ISO8601Timestamp.string(from: date))
    case .bool(let flag):
      hasher.combine(2)
      hasher.combine(flag)
    case .array(let items):
      hasher.combine(3)
      hasher.combine(items.count)
      for item in items { combine(item, into: &hasher) }
    case .object(let object):
      hasher.combine(4)
      hasher.combine(fingerprint(object))
    case .null:
      hasher.combine(5)
    }
  }
}
