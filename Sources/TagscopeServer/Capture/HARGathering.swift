import AnalyticsHub
import TagscopeRecording

/// A request being gathered back from the records of one request (``HARGatheredRequest``,
/// ``HARGatheredBatches``): its first record starts it, the records after it that are of it add
/// to it, and its entry is written when a record not of it comes.
protocol HARGathering: Sendable {
  /// Whether `record` is one of this request's records after its first.
  func continues(with record: Record, _ output: ProviderOutput) -> Bool
  /// Adds `record` to the request; or says why it cannot (the request goes without it).
  mutating func add(_ record: Record, _ output: ProviderOutput) -> HARRequestRebuild.NotRebuilt?
  /// The request gathered so far.
  var request: HARRequestRebuild { get }
  /// The entry's time.
  var time: Int64 { get }
  /// The vendor's answer, as the first record keeps it.
  var status: PropertyValue? { get }
}
