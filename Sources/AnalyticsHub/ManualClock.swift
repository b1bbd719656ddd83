import Foundation

/// A clock moved by hand, for a hub whose time is simulated rather than read: the podcast demo and
/// the benchmarks send tags at chosen times, and tests get exact timestamps and durations. Time
/// moves only with ``advance(by:)``; give the hub ``hubClock`` in its ``HubConfiguration``.
public final class ManualClock: Sendable {
  /// Wall time and monotonic nanoseconds, moved together.
  private let time: Locked<(now: Date, uptime: UInt64)>

  /// A clock reading `start`.
  public init(start: Date = Date(timeIntervalSince1970: 1_795_000_000)) { time = Locked((start, 0)) }

  /// Moves time forward.
  public func advance(by seconds: TimeInterval) {
    time.withLock { time in
      time.now += seconds
      time.uptime += UInt64((seconds * 1_000_000_000).rounded())
    }
  }

  /// The current wall time.
  public var now: Date { time.withLock { $0.now } }

  /// This clock as the hub's time source.
  public var hubClock: HubClock {
    HubClock(now: { [self] in now }, uptimeNanoseconds: { [self] in time.withLock { $0.uptime } })
  }
}
