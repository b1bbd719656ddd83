import AnalyticsHub
import Foundation
import TagscopeRecording

/// One SDK's HTTP API: decodes a request into events and answers as the real service does.
///
/// Each endpoint is a pure function of the request, like a SwiftNIO handler with one job; the
/// HTTP plumbing (framing, limits, gzip, timeouts) lives in the channel handlers.
protocol SDKEndpoint: Sendable {
  /// The provider id of the SDK (`segment`, `amplitude`, …), for counters and records.
  var provider: String { get }
  /// The largest body accepted, after decompression, in bytes.
  var bodyLimit: Int { get }
  /// The reply to a body over ``bodyLimit``.
  func replyTooLarge() -> SDKReply
  /// Decodes `request` and answers it.
  func handle(_ request: ReceivedRequest) -> SDKReply
  /// ``handle(_:)`` where the events may be left in the body, decoded when delivered
  /// (``SDKReply/batch``): the listen server's entry.
  func handleLazily(_ request: ReceivedRequest) -> SDKReply
}

extension SDKEndpoint {
  /// Every event decoded at once: ``handle(_:)``.
  func handleLazily(_ request: ReceivedRequest) -> SDKReply { handle(request) }
}

/// The JSON helpers every decoder shares.
enum Payload {
  /// A top-level or nested field as a string, converting numbers (ids are often sent as numbers).
  /// A JSON string only (credentials: the number 12345 is not the key "12345").
  static func text(_ value: PropertyValue?) -> String? {
    if case .string(let text)? = value { return text }
    return nil
  }

  static func string(_ value: PropertyValue?) -> String? {
    switch value {
    case .string(let text): return text
    case .int(let number): return String(number)
    case .double(let number): return String(number)
    default: return nil
    }
  }

  /// The object at `key`, or empty properties.
  static func object(_ value: PropertyValue?) -> Properties {
    if case .object(let properties) = value { return properties }
    return [:]
  }

  /// The object at `key` or `nil` when it is something else.
  static func objectOrNil(_ value: PropertyValue?) -> Properties? {
    if case .object(let properties) = value { return properties }
    return nil
  }

  /// `text` cut to 40 characters (and `…`), for the place or value a problem names.
  static func excerpt(_ text: String) -> String {
    text.count <= 40 ? text : String(text.prefix(40)) + "…"
  }

  /// The date `seconds` after 1970, or `nil` (the event then takes the time it was received) when
  /// a client's time is not one a recording can hold: not finite, or outside years 1…9999.
  static func date(seconds: Double) -> Date? {
    guard seconds.isFinite, seconds >= Double(ISO8601Timestamp.earliest) / 1000,
      seconds <= Double(ISO8601Timestamp.latest) / 1000
    else { return nil }
    return Date(timeIntervalSince1970: seconds)
  }

  /// A decimal number sent as text (`2.5`, `-1e3`), or `nil` for anything else — including what
  /// `Double(_:)` also reads (`nan`, `inf`, hexadecimal) and numbers beyond a double's range,
  /// which a recording could not hold.
  static func number(_ text: String) -> Double? {
    guard !text.isEmpty, text.utf8.allSatisfy({ (0x30...0x39).contains($0) || "+-.eE".utf8.contains($0) }),
      let value = Double(text), value.isFinite
    else { return nil }
    return value
  }

  /// The elements of an array value, or `nil` when it is something else.
  static func array(_ value: PropertyValue?) -> [PropertyValue]? {
    if case .array(let values) = value { return values }
    return nil
  }
}
