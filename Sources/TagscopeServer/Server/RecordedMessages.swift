import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeRecording

/// The SDK messages of a recording being continued that an SDK may still retry: `listen` remembers
/// them at start (``RetryMemory``), so the retry of a message the `listen` before took (answered
/// `503`, or its reply lost when that `listen` stopped) is recorded once.
///
/// Only when the file was last written within ``RetryMemory/window``: its last messages, at most
/// ``RetryMemory/limit``, are remembered until that write plus the window (a record does not keep
/// when it was received; each was received before the file's last write). Only messages whose SDK
/// gives them an id (``IngestedEvent/messageID``, unique per message) are noted, not GA4's, known
/// by their payload: two equal GA4 hits are two events.
public struct RecordedMessages: Sendable {
  /// Until when the messages may match (the file's last write plus the window); `nil` when the
  /// file was written longer ago than the window.
  public let until: Date?
  /// The messages' keys (``RetryMemory/key(provider:id:)``), a ring of the last ones.
  private(set) var keys: [Int] = []
  private var next = 0

  /// None.
  public init() { until = nil }

  /// Ready to note the messages of a recording last written at `lastWritten`.
  public init(lastWritten: Date, now: Date = Date()) {
    let until = lastWritten.addingTimeInterval(Double(RetryMemory.window.nanoseconds) / 1e9)
    self.until = until > now ? until : nil
  }

  /// How many messages are noted.
  public var count: Int { keys.count }

  /// Notes `record` if `listen` wrote it from an SDK message with an id.
  public mutating func note(_ record: Record) {
    guard until != nil, let raw = record.raw, let output = record.outputs.first, let call = output.calls.first
    else { return }
    for id in Self.messageIDs(provider: output.provider, call: call, raw: raw) {
      let key = RetryMemory.key(provider: output.provider, id: id)
      if keys.count < RetryMemory.limit {
        keys.append(key)
      } else {
        keys[next] = key
        next = (next + 1) % RetryMemory.limit
      }
    }
  }

  /// The id the endpoint of `provider` took as ``IngestedEvent/messageID`` of the message it
  /// recorded as `call` (whose parameters hold the message's fields, or, for Mixpanel's `track`,
  /// its properties) with `raw`, where its descriptor says (``Vendor/MessageFields/messageID``,
  /// the first place that holds one). mParticle's Events API's is `source_message_id`, under the
  /// call's `data`; its mobile SDKs' message `id` is only in `raw` (the message as sent, with its
  /// type `dt`), read only for those.
  public static func messageIDs(provider: String, call: CallDescription, raw: String) -> [String] {
    Reader(provider: provider).messageIDs(call: call, raw: raw)
  }

  /// The event properties of the message `provider`'s SDK sent, recorded as `call`, where its
  /// descriptor says (``Vendor/MessageFields/properties``); `nil` where Tagscope does not map them.
  public static func properties(provider: String, call: CallDescription) -> Properties? {
    Reader(provider: provider).properties(call: call)
  }

  /// ``messageIDs(provider:call:raw:)`` and ``properties(provider:call:)`` of one provider's
  /// calls, its descriptor looked up and its dotted paths split once (the delivery ledger reads
  /// every call's). A class: the ledger hands it to each call's reading without copying its
  /// fields (each a reference retained and released for every call).
  public final class Reader: Sendable {
    /// One place a message id may be, its path split at its dots.
    private struct IDPlace: Sendable {
      let keys: [String]
      let method: String?
      let rawMarker: String?
    }

    private let idPlaces: [IDPlace]
    /// Where an event's properties are: the call's parameters (no keys), under these keys, or
    /// not mapped (`nil`).
    private let propertyKeys: [String]?
    private let sdkProperties: Vendor.SDKProperties

    /// The reader of `provider`'s calls.
    public init(provider: String) {
      let fields = Vendors.vendor(ProviderID(rawValue: provider))?.messages
      idPlaces = (fields?.messageID ?? []).map {
        IDPlace(keys: Reader.keys($0.path), method: $0.method, rawMarker: $0.rawMarker)
      }
      readsRaw = idPlaces.contains { $0.rawMarker != nil }
      switch fields?.properties {
      case .parameters: propertyKeys = []
      case .at(let path): propertyKeys = Reader.keys(path)
      case .unmapped, nil: propertyKeys = nil
      }
      sdkProperties = fields?.sdkProperties ?? .none
    }

    /// ``RecordedMessages/messageIDs(provider:call:raw:)``.
    public func messageIDs(call: CallDescription, raw: String) -> [String] {
      for place in idPlaces where place.method == nil || place.method == call.method {
        if let marker = place.rawMarker {
          // Only messages as sent that carry the marker key (mParticle's mobile messages, typed by
          // `dt`); their id a JSON string only.
          guard raw.contains("\"\(marker)\""), let message = Payload.objectOrNil(try? JSONParser.parse(raw)),
            message[marker] != nil, let id = Payload.text(Reader.value(at: place.keys, in: message))
          else { continue }
          return [id]
        }
        if let id = Payload.string(Reader.value(at: place.keys, in: call.parameters)) { return [id] }
      }
      return []
    }

    /// Whether ``messageIDs(call:raw:)`` reads the message as sent (`raw`) for some calls; if
    /// not, it needs none.
    public let readsRaw: Bool

    /// ``RecordedMessages/properties(provider:call:)``.
    public func properties(call: CallDescription) -> Properties? {
      guard let keys = propertyKeys else { return nil }
      return keys.isEmpty ? call.parameters : Payload.objectOrNil(Reader.value(at: keys, in: call.parameters))
    }

    /// Whether the provider's SDKs add properties of their own among an event's
    /// (``Vendor/SDKProperties``).
    public var sdkAddsProperties: Bool { !sdkProperties.isEmpty }

    /// Whether `key` names a property the provider's SDKs add themselves (Mixpanel's `mp_lib`).
    public func isSDKProperty(_ key: String) -> Bool { sdkProperties.contains(key) }

    /// The keys of dotted path `path` (`data.source_message_id`).
    private static func keys(_ path: String) -> [String] { path.split(separator: ".").map(String.init) }

    /// The value at the path of `keys` in `object`.
    private static func value(at keys: [String], in object: Properties) -> PropertyValue? {
      guard keys.count > 1 else { return keys.first.flatMap { object[$0] } }
      var current = object
      for key in keys.dropLast() { current = Payload.object(current[key]) }
      return current[keys[keys.count - 1]]
    }
  }
}
