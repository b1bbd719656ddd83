import AnalyticsHub

/// What one device remembers of one entry's `duplicateWithin` window: the newest record of each
/// property set seen within it, found by the set's hash. At most ``limit`` sets are kept: a full
/// window first forgets the sets whose records left it; if more than three quarters of the limit
/// are still inside, the oldest ones down to half the limit are forgotten, and the record that
/// made it so gets a warning saying so (a repeat of a forgotten set would not be found), never a
/// silent pass. A sweep happens at most once per quarter of the limit of new sets, so each record
/// costs a hash lookup and amortised constant work.
struct DuplicateWindow: Sendable {
  /// Different property sets remembered per entry and device within its window.
  static let limit = 1_024

  private(set) var latest: [Properties: JourneyRecord] = [:]

  /// Sets remembered.
  var count: Int { latest.count }

  /// The record `properties` repeats within `window` of `time`, if any.
  func earlier(_ properties: Properties, at time: Int64, window: Int64) -> JourneyRecord? {
    guard let record = latest[properties], abs(time - record.time) <= window else { return nil }
    return record
  }

  /// Whether remembering a new set at `time` may have to forget sets still within `window`:
  /// then the record is checked in full (its warning needs it).
  func isFull() -> Bool { latest.count >= Self.limit }

  /// Remembers `record` as the newest of `properties`; returns the count of sets forgotten while
  /// still within `window` of it (0 unless the window was full).
  @discardableResult
  mutating func remember(_ properties: Properties, record: JourneyRecord, window: Int64) -> Int {
    latest[properties] = record
    guard latest.count > Self.limit else { return 0 }
    latest = latest.filter { abs(record.time - $0.value.time) <= window }
    guard latest.count > Self.limit * 3 / 4 else { return 0 }
    let oldest = latest.sorted { ($0.value.time, $0.value.seq) < ($1.value.time, $1.value.seq) }
    let forgotten = latest.count - Self.limit / 2
    for (set, _) in oldest.prefix(forgotten) { latest.removeValue(forKey: set) }
    return forgotten
  }
}
