import AnalyticsHub
import Foundation
import TagscopeRecording

/// Turns what an SDK endpoint decoded into recording ``Record``s: one output for that SDK,
/// `sent`, with the call as received, its rule violations and the raw payload — empty where the
/// call holds the payload whole (``IngestedEvent/recordsRaw``): a line then holds an event's
/// payload twice (its properties and the call's parameters), not three times. Empty, not left out:
/// a `raw` is what tells a record made from an SDK's request (``Record/isFromSDK``), in
/// recordings old and new.
enum RecordMaker {
  /// The record of `event`, numbered `seq`, from `source` with `context` (its device's state),
  /// received at `received`.
  static func record(
    _ event: IngestedEvent, seq: UInt64, source: String, context: RecordContext, received: Date
  ) -> Record {
    let output = ProviderOutput(
      provider: event.provider, status: .sent, calls: [event.call],
      violations: event.violations.map(RecordViolation.init), extra: extra(event))
    return Record(
      seq: seq, time: event.time ?? received, kind: RecordKind(event.kind), name: event.name,
      properties: event.properties, context: context, outputs: [output], source: source,
      raw: event.recordsRaw ? event.raw : "")
  }

  /// The output's extra fields: the event's credentials, then its annotations. Either alone is
  /// taken as it is: merging a Firebase event's two dozen annotations into no credentials hashed
  /// every key again, 9% of the proxy's event-loop time for Firebase uploads in a profile.
  private static func extra(_ event: IngestedEvent) -> Properties {
    if event.annotations.isEmpty { return event.credentials }
    if event.credentials.isEmpty { return event.annotations }
    return event.credentials.merging(event.annotations)
  }
}
