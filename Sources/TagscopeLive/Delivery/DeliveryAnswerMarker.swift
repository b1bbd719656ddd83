import AnalyticsHub
import Foundation
import TagscopeRecording

/// The vendor's answer to an SDK request the proxy forwarded, as a recording line: a drop marker
/// of nothing, `{"dropped":0,"time":"…","by":"answer","status":400,"records":2,"back":5}`, so
/// validate's offline delivery ledger has the answers the live one had (`refused` included).
///
/// `records` wire records carried the request, the first of them `back` records before the line
/// (the records stored in between are counted, not their positions in a session: a recording a
/// later run of `listen` appends to still reads right). Written as a drop marker so every reader
/// takes it (replay lists it among the gaps, validate counts no lost record).
public struct DeliveryAnswerMarker: Sendable, Hashable {
  /// The `by` of an answer's drop marker.
  public static let origin = "answer"

  /// The answer's HTTP status (`status`).
  public var status: Int
  /// The wire records of the request (`records`).
  public var records: Int
  /// The records stored from the request's first to the line (`back`).
  public var back: Int
  /// When the answer came, in milliseconds since 1970.
  public var timeMilliseconds: Int64

  /// An answer line.
  public init(status: Int, records: Int, back: Int, time: Date) {
    self.status = status
    self.records = records
    self.back = back
    self.timeMilliseconds = time.recordMilliseconds
  }

  /// The answer line `marker` is, or `nil` when it is another drop marker (or an answer line
  /// missing a field, or with one out of range).
  public init?(_ marker: DropMarker) {
    guard marker.origin == Self.origin, marker.count == 0,
      case .int(let status)? = marker.extra["status"], (100...599).contains(status),
      case .int(let records)? = marker.extra["records"], records > 0,
      case .int(let back)? = marker.extra["back"], back >= records
    else { return nil }
    self.status = status
    self.records = records
    self.back = back
    self.timeMilliseconds = marker.timeMilliseconds
  }

  /// The drop marker written for it.
  public var dropMarker: DropMarker {
    var marker = DropMarker(
      count: 0, time: Date(), origin: Self.origin,
      extra: ["status": .int(status), "records": .int(records), "back": .int(back)])
    marker.timeMilliseconds = timeMilliseconds
    return marker
  }

  /// The session positions of the request's wire records, for a line read after the record at
  /// position `next - 1`.
  public func wirePositions(before next: Int) -> Range<Int> {
    (next - back)..<(next - back + records)
  }
}
