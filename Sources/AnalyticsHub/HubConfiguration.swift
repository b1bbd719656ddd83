import Dispatch
import Foundation

/// The time sources the hub reads: wall time for timestamps, a monotonic clock for durations.
public struct HubClock: Sendable {
  /// Wall-clock time.
  public var now: @Sendable () -> Date
  /// Monotonic nanoseconds, for timed event durations.
  public var uptimeNanoseconds: @Sendable () -> UInt64

  /// A clock from two sources.
  public init(now: @escaping @Sendable () -> Date, uptimeNanoseconds: @escaping @Sendable () -> UInt64) {
    self.now = now
    self.uptimeNanoseconds = uptimeNanoseconds
  }

  /// The system clocks.
  public static let system = HubClock(
    now: { Date() }, uptimeNanoseconds: { DispatchTime.now().uptimeNanoseconds })
}

/// How a hub behaves.
public struct HubConfiguration: Sendable {
  /// How many screens the history keeps (default 5, as in seed 000).
  public var historyLimit: Int
  /// Consent before any decision: `true` (opt-out) or `false` (opt-in, GDPR).
  public var defaultConsent: Bool
  /// Whether providers' rules are checked on every call (see `AnalyticsProviders`).
  public var checksProviderRules: Bool
  /// Time sources.
  public var clock: HubClock
  /// Makes session identifiers.
  public var makeSessionID: @Sendable () -> String
  /// How long, in seconds, a sending thread may spend handing calls to adapters and dispatches to
  /// observers (default 0.5 ms). A provider's adapter (or the observers) taking longer for one
  /// batch is delivered from a hub queue from then on, until a batch there is fast again; queued
  /// work left when the time is up is passed to a hub queue too.
  public var inlineDeliveryLimit: Double

  /// A configuration; every argument has the documented default.
  public init(
    historyLimit: Int = 5,
    defaultConsent: Bool = true,
    checksProviderRules: Bool = true,
    clock: HubClock = .system,
    makeSessionID: @escaping @Sendable () -> String = { UUID().uuidString.lowercased() },
    inlineDeliveryLimit: Double = 0.000_5
  ) {
    self.historyLimit = max(1, historyLimit)
    self.defaultConsent = defaultConsent
    self.checksProviderRules = checksProviderRules
    self.clock = clock
    self.makeSessionID = makeSessionID
    self.inlineDeliveryLimit = max(0, inlineDeliveryLimit)
  }

  @usableFromInline
  var inlineDeliveryLimitNanoseconds: UInt64 { UInt64(min(inlineDeliveryLimit, 1e9) * 1e9) }
}

/// Errors the hub throws at the app: only for programming mistakes in its set-up.
public enum HubError: Error, Equatable, CustomStringConvertible {
  /// A provider with this identifier is already registered.
  case duplicateProvider(ProviderID)
  /// No provider with this identifier is registered.
  case unknownProvider(ProviderID)

  public var description: String {
    switch self {
    case .duplicateProvider(let id):
      return "a provider with id '\(id)' is already registered; unregister it first or choose another id"
    case .unknownProvider(let id):
      return "no provider with id '\(id)' is registered"
    }
  }
}
