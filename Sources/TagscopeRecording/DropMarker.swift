import AnalyticsHub
import Foundation

/// A line saying records were lost because a writer fell behind:
/// `{"dropped":12,"time":"…","afterSeq":4051,"by":"recorder"}`.
///
/// The recorder and the remote sink write one whenever they had to drop records from a full
/// backlog, so a reader always knows a recording has gaps.
public struct DropMarker: Sendable, Hashable {
  /// How many records were dropped (`dropped`).
  public var count: Int
  /// When the drop was written (`time`).
  public var time: Date {
    get { Date(recordMilliseconds: timeMilliseconds) }
    set { timeMilliseconds = newValue.recordMilliseconds }
  }
  /// ``time`` in milliseconds since 1970.
  public var timeMilliseconds: Int64
  /// The last record written before the gap, if any (`afterSeq`).
  public var afterSeq: UInt64?
  /// Who dropped: `recorder`, `remote` (`by`).
  public var origin: String
  /// Fields this version does not know.
  public var extra: Properties

  /// A marker.
  public init(count: Int, time: Date, afterSeq: UInt64? = nil, origin: String, extra: Properties = [:]) {
    self.count = count
    self.timeMilliseconds = time.recordMilliseconds
    self.afterSeq = afterSeq
    self.origin = origin
    self.extra = extra
  }
}
