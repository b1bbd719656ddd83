import AnalyticsHub
import Foundation

/// Builds the demo's hub: a real ``AnalyticsHub`` for the podcast taxonomy on a clock that the
/// simulator can drive, with deterministic session identifiers when a seed is given.
public enum DemoHub {
  /// The wall time a seeded demo starts at, so equal seeds give byte-identical recordings.
  public static let seededEpoch = Date(timeIntervalSince1970: 1_795_255_200)  // 2026-11-21T10:00:00Z

  /// A hub with `providers`, its clock and, when `seed` is given, deterministic session ids.
  public static func make(
    providers: ProviderSet<PodcastTaxonomy>, clock: ManualClock, seed: UInt64
  ) throws -> AnalyticsHub<PodcastTaxonomy> {
    let counter = SessionCounter(seed: seed)
    let configuration = HubConfiguration(clock: clock.hubClock, makeSessionID: { counter.next() })
    return try AnalyticsHub(configuration: configuration, providers: providers)
  }
}

/// Session identifiers `s-<seed>-1`, `s-<seed>-2`…
private final class SessionCounter: @unchecked Sendable {
  private let lock = NSLock()
  private let seed: UInt64
  private var count = 0

  init(seed: UInt64) { self.seed = seed }

  func next() -> String {
    lock.lock()
    defer { lock.unlock() }
    count += 1
    return "s-\(seed)-\(count)"
  }
}
