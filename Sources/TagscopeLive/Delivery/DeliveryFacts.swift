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
    reader.properties(call: call).map { fingerprint($0, leavingOut: reader) }
  }

  /// The fingerprint of in-app call `call`'s parameters, by its provider's `reader`.
  static func fingerprint(inApp call: CallDescription, reader: RecordedMessages.Reader) -> Int {
    fingerprint(call.parameters, leavingOut: reader)
  }

  /// ``fingerprint(_:)`` of `properties` but those the provider's SDK adds itself (Mixpanel's
  /// `mp_lib`, `time`), by its `reader`: on both sides, so a call matches what its SDK sent.
  static func fingerprint(_ properties: Properties, leavingOut reader: RecordedMessages.Reader) -> Int {
    guard reader.sdkAddsProperties else { return fingerprint(properties) }
    var total: UInt64 = 0
    for (key, value) in properties where !reader.isSDKProperty(key) {
      total = total &+ mix(hash(key) &* 31 &+ hash(value))
    }
    return Int(truncatingIfNeeded: total)
  }

  /// The same fingerprint for the same properties in any key order, `1830` and `1830.0` alike:
  /// the sum of each property's mixed hash (FNV-1a over an ASCII string's bytes, which is its one
  /// canonical form; Swift's hasher for any other string).
  static func fingerprint(_ properties: Properties) -> Int {
    var total: UInt64 = 0
    for (key, value) in properties {
      total = total &+ mix(hash(key) &* 31 &+ hash(value))
    }
    return Int(truncatingIfNeeded: total)
  }

  private static func hash(_ value: PropertyValue) -> UInt64 {
    switch value {
    case .int, .double, .largeInteger: mix(1 &+ (value.doubleValue.map { $0 == 0 ? 0 : $0.bitPattern } ?? 0))
    case .string(let text): mix(2 &+ hash(text))
    case .date(let date): mix(2 &+ hash(ISO8601Timestamp.string(from: date)))
    case .bool(let flag): flag ? 3 : 4
    case .array(let items):
      items.reduce(mix(5 &+ UInt64(items.count))) { mix($0 &* 31 &+ hash($1)) }
    case .object(let object): mix(6 &+ UInt64(bitPattern: Int64(fingerprint(object))))
    case .null: 7
    }
  }

  private static func hash(_ text: String) -> UInt64 {
    let ascii: UInt64? =
      text.utf8.withContiguousStorageIfAvailable(asciiHash)
      ?? Array(text.utf8).withUnsafeBufferPointer(asciiHash)
    return ascii ?? UInt64(bitPattern: Int64(text.hashValue))
  }

  /// FNV-1a over `bytes`, or `nil` if one is not ASCII (its hash is then Swift's, which a
  /// canonically equivalent string shares).
  private static func asciiHash(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64? {
    var fnv: UInt64 = 0xcbf2_9ce4_8422_2325
    var high: UInt8 = 0
    for byte in bytes {
      high |= byte
      fnv = (fnv ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return high < 0x80 ? fnv : nil
  }

  /// A 64-bit finalizer (splitmix64's): nearby inputs spread over every bit.
  private static func mix(_ value: UInt64) -> UInt64 {
    var z = value &+ 0x9e37_79b9_7f4a_7c15
    z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
    z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
    return z ^ (z >> 31)
  }
}
