import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeServer

/// What the ledger reads of a call's parameters to match it: their fingerprint and the SDK
/// message ids the call carries.
enum DeliveryFacts {
  /// The SDK message ids in-app call `call` carries (its adapter read them back), read by its
  /// provider's `reader`.
  static func ids(inApp call: CallDescription, reader: RecordedMessages.Reader) -> [String] {
    reader.messageIDs(call: call, raw: "")
  }

  /// The SDK message ids of wire call `call`, sent as `raw`.
  static func ids(wire call: CallDescription, reader: RecordedMessages.Reader, raw: String) -> [String] {
    reader.messageIDs(call: call, raw: raw)
  }

  /// The fingerprint of wire call `call`'s properties (its parameters are the SDK's whole
  /// message); `nil` where Tagscope does not map them: it matches on its kind alone.
  static func fingerprint(wire call: CallDescription, reader: RecordedMessages.Reader) -> Int? {
    reader.properties(call: call).map(fingerprint)
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
