import AnalyticsHub
import TagscopeRecording

/// What a request being gathered from its records (``HARGathering``) knows of its entry as records
/// come: its vendor, the entry's time, the vendor's answer, and the first record refused, after which no
/// record of the request is taken (each would read back at another place: `events[3]` as
/// `events[2]`).
struct HARGatheredProgress: Sendable {
  typealias NotRebuilt = HARRequestRebuild.NotRebuilt

  /// What the request is called in a refusal (`request`, `upload`).
  let whole: String
  /// The vendor the request is sent to (its first record's provider).
  let provider: String
  /// The entry's time: that of the first record whose time is not its SDK's own (the entry's when
  /// imported), else the first record's.
  private(set) var time: Int64
  private var timeIsEntrys = false
  /// The first record of the request not rebuilt, if any.
  private var refusedSeq: UInt64?
  /// The vendor's answer, as the first record keeps it.
  let status: PropertyValue?

  /// The progress of the request `record` (with its first `output`) starts, called `whole`.
  init(first record: Record, _ output: ProviderOutput, whole: String = "request") {
    self.whole = whole
    provider = output.provider
    time = record.timeMilliseconds
    status = output.extra["response_status"]
  }

  /// Why a record cannot be taken before it is tried: a record before it was refused.
  var refusalBefore: NotRebuilt? {
    refusedSeq.map {
      NotRebuilt(
        reason:
          "record \($0) before it in its \(whole) is not rebuilt, so its place in the \(whole) would shift")
    }
  }

  /// Notes that `record` is not taken, for `refusal` if any (the records after it are not either).
  /// Returns `refusal`.
  mutating func settle(_ record: Record, _ refusal: NotRebuilt?) -> NotRebuilt? {
    if refusal != nil { refusedSeq = record.seq }
    return refusal
  }

  /// Notes that `record` is taken: when its time is not its SDK's own (`ownTime` false), that
  /// time is the entry's, unless a record before it gave it.
  mutating func take(_ record: Record, ownTime: Bool) {
    guard !ownTime, !timeIsEntrys else { return }
    time = record.timeMilliseconds
    timeIsEntrys = true
  }
}
