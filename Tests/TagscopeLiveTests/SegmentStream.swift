import AnalyticsHub
import Foundation
import TagscopeRecording

/// The hand-made records of the delivery tests: Segment `track` calls and the wire records of
/// them, on one clock.
enum SegmentStream {
  /// The Mac's clock at the start of each stream.
  static let start: Int64 = 1_800_000_000_000

  /// `milliseconds` after ``start``.
  static func date(_ milliseconds: Int64) -> Date { Date(recordMilliseconds: start + milliseconds) }

  /// An in-app record whose `provider` output holds one `track` call.
  static func call(
    _ name: String, params: Properties = [:], at milliseconds: Int64, provider: String = "segment"
  ) -> Record {
    let output = ProviderOutput(
      provider: provider, status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: params)])
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: "phone")
  }

  /// A Segment `track` message as `listen` records it from `source`, with its `messageId` if given.
  static func wire(
    _ name: String, params: Properties = [:], at milliseconds: Int64, source: String = "segment@127.0.0.1",
    messageID: String? = nil
  ) -> Record {
    var message: Properties = ["type": "track", "event": .string(name), "properties": .object(params)]
    if let messageID { message["messageId"] = .string(messageID) }
    let output = ProviderOutput(
      provider: "segment", status: .sent,
      calls: [CallDescription(method: "track", name: name, parameters: message)])
    return Record(
      seq: 1, time: date(milliseconds), kind: .event, name: name, properties: params, outputs: [output],
      source: source, raw: "")
  }
}
