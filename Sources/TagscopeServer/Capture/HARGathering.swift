import AnalyticsHub
import TagscopeRecording

/// A request being gathered back from the records of one request (``HARGatheredRequest``,
/// ``HARGatheredBatches``, ``HARGatheredUpload``): its first record starts it, the records after
/// it that are of it add to it, and its entry is written when a record not of it comes.
protocol HARGathering: Sendable {
  /// Whether `record` is one of this request's records after its first.
  func continues(with record: Record, _ output: ProviderOutput) -> Bool
  /// Adds `record` to the request; or says why it cannot (the request goes without it).
  mutating func add(_ record: Record, _ output: ProviderOutput) -> HARRequestRebuild.NotRebuilt?
  /// The request gathered so far, or why it cannot be written (the entry is refused with it).
  var request: Result<HARRequestRebuild, HARRequestRebuild.NotRebuilt> { get }
  /// The entry's time, its vendor's answer, and the records refused.
  var progress: HARGatheredProgress { get }
}
