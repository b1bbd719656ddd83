import Foundation
import TagscopeRecording

/// The mark the live session writes before the wire records of a request the proxy forwards to
/// its vendor, as a recording line: a drop marker of nothing,
/// `{"dropped":0,"time":"…","by":"forwarded","records":2}`. Validate's offline delivery ledger then
/// has those records in flight until their answer line (``DeliveryAnswerMarker``), and one with
/// none is lost at the end, as live ("the session ended before the vendor answered it"); a wire
/// record without the mark was answered by `listen` itself.
public struct DeliveryForwardMarker: Sendable, Hashable {
  /// The `by` of a forwarded request's drop marker.
  public static let origin = "forwarded"

  /// The wire records of the request, those right after the line (`records`).
  public var records: Int
  /// When the request was stored, in milliseconds since 1970.
  public var timeMilliseconds: Int64

  /// The mark of a request of `records` wire records.
  public init(records: Int, time: Date) {
    self.records = records
    self.timeMilliseconds = time.recordMilliseconds
  }

  /// The mark `marker` is, or `nil` when it is another drop marker (or a mark without a positive
  /// `records`).
  public init?(_ marker: DropMarker) {
    guard marker.origin == Self.origin, marker.count == 0,
      case .int(let records)? = marker.extra["records"], records > 0
    else { return nil }
    self.records = records
    self.timeMilliseconds = marker.timeMilliseconds
  }

  /// The drop marker written for it.
  public var dropMarker: DropMarker {
    var marker = DropMarker(count: 0, time: Date(), origin: Self.origin, extra: ["records": .int(records)])
    marker.timeMilliseconds = timeMilliseconds
    return marker
  }
}
