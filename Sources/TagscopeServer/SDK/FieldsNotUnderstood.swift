import AnalyticsHub

/// The SDK payload fields `listen` and the proxy did not understand since they started
/// (``FieldAccount``): their count and the first one's place, for the summary line.
public struct FieldsNotUnderstood: Sendable, Hashable {
  /// The rule of the violation that reports them on a record's output.
  public static let rule = "sdk.field-not-understood"

  /// How many fields.
  public private(set) var count = 0
  /// The first one's place: `record 12 segment context`.
  public private(set) var first: String?

  /// None.
  public init() {}

  /// Counts the fields `event`, recorded as `seq`, did not understand.
  mutating func add(_ event: IngestedEvent, seq: UInt64) {
    guard event.violations.contains(where: { $0.rule == FieldAccount.rule }) else { return }
    let places = FieldAccount.places(in: event.annotations)
    guard let place = places.first else { return }
    count += places.count
    if first == nil { first = "record \(seq) \(event.provider) \(place)" }
  }

  /// `fields not understood: 3 (first: record 12 segment context)`, `nil` when none.
  public var summary: String? {
    guard let first else { return nil }
    return "fields not understood: \(count) (first: \(first))"
  }
}
