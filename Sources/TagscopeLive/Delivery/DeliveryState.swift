import Foundation

/// The fate of one provider call the hub handed to an SDK, as the delivery ledger knows it.
public enum DeliveryState: String, Sendable, Hashable, CaseIterable {
  /// Seen on the wire and answered with a success (by the vendor through the proxy, or by `listen`).
  case delivered
  /// Seen on the wire, no answer yet.
  case inFlight
  /// Not seen on the wire yet.
  case queued
  /// Dropped by the SDK: a documented SDK rule the provider's rules flag as `dropped`.
  case droppedBySDK
  /// Seen on the wire and answered with a 4xx or 5xx.
  case refused
  /// Never known to reach its vendor: the session ended, or the app restarted, before it was
  /// sent; or it was sent and the session ended before the vendor answered.
  case lost
  /// No wire record of its provider reached the session: nothing can say whether it was sent.
  case noWireSource
  /// Two or more identical calls in one window and their wire calls: which carried which is not
  /// known, so none is guessed.
  case ambiguous

  /// Its place in ``allCases`` (a count's index, found without hashing its name).
  var place: Int {
    switch self {
    case .delivered: 0
    case .inFlight: 1
    case .queued: 2
    case .droppedBySDK: 3
    case .refused: 4
    case .lost: 5
    case .noWireSource: 6
    case .ambiguous: 7
    }
  }

  /// Whether the call's fate is known for good (the query API's wait ends when every call before
  /// it is): everything but ``queued`` and ``inFlight``.
  public var isSettled: Bool { self != .queued && self != .inFlight }
}

/// One provider call's ledger entry, as of a snapshot: what the TUI, reports and query API read.
public struct DeliveryEntry: Sendable, Hashable {
  /// The ledger's number of the call, from 1, in the order the in-app records arrived.
  public var number: Int
  /// The session position of the in-app record that holds the call.
  public var position: Int
  /// The call's index among its output's calls.
  public var callIndex: Int
  /// The provider (`segment`).
  public var provider: String
  /// The call's method and name (`track`, `Play Podcast`).
  public var method: String
  public var name: String?
  /// The in-app source (device) that made the call (`app` for an in-process hub).
  public var device: String
  /// When the hub made the call, by the device's clock.
  public var called: Date
  /// Its state.
  public var state: DeliveryState
  /// The session position of the wire record that carried it (delivered, in flight, refused).
  public var wirePosition: Int?
  /// The wire source (`segment@127.0.0.1`) that carried it.
  public var wireSource: String?
  /// The answer's HTTP status (delivered, refused).
  public var answerStatus: Int?
  /// From the call to the answer, in milliseconds, the device's clock corrected by its skew.
  public var latencyMilliseconds: Int?
  /// How long it has been queued, in milliseconds (queued only).
  public var ageMilliseconds: Int?
  /// Why: the SDK rule that drops it, why it was lost, or how many wire calls it could be.
  public var reason: String?
  /// The wire positions an ambiguous call could be.
  public var candidates: [Int]
}

/// A wire call no in-app call explains: the SDK's automatic events, or another code path.
public struct UnexplainedWireCall: Sendable, Hashable {
  /// Its session position.
  public var position: Int
  /// Its provider, method and name.
  public var provider: String
  public var method: String
  public var name: String?
  /// Its wire source.
  public var source: String
  /// When it says it happened.
  public var time: Date
}

/// What the ledger holds as of one moment, filtered.
public struct DeliverySnapshot: Sendable, Hashable {
  /// The number of calls in each state (of the filter's provider and device, every state).
  public var counts: [DeliveryState: Int]
  /// The entries that pass the filter, oldest first.
  public var entries: [DeliveryEntry]
  /// The wire calls no in-app call explains (of the filter's provider) whose entries are kept:
  /// each wire source's last ones (``DeliveryLedger/defaultKeptSettled``).
  public var unexplained: [UnexplainedWireCall]
  /// Every wire call no in-app call explains (of the filter's provider), those let go of too.
  public var unexplainedCount: Int
  /// The wire calls no in-app call explained that were let go of (each wire source keeps its last
  /// ``DeliveryLedger/defaultKeptSettled`` and those within two windows of its newest), by wire
  /// source (of the filter's provider): counted in `unexplainedCount`, but an in-app call that
  /// arrives after them (an inspector connecting after its app's SDK sent them) cannot be matched
  /// to them any more. Its entry's reason says so.
  public var letGoUnexplained: [String: Int]

  /// The count of `state`.
  public func count(_ state: DeliveryState) -> Int { counts[state] ?? 0 }

  /// Every call counted.
  public var total: Int { counts.values.reduce(0, +) }
}

/// Which entries a snapshot gives.
public struct DeliveryFilter: Sendable, Hashable {
  /// Only this state; `nil`: every state.
  public var state: DeliveryState?
  /// Only this provider.
  public var provider: String?
  /// Only calls of this in-app device.
  public var device: String?
  /// The most entries given (the last ones).
  public var limit: Int

  /// A filter; everything by default.
  public init(state: DeliveryState? = nil, provider: String? = nil, device: String? = nil, limit: Int = .max)
  {
    self.state = state
    self.provider = provider
    self.device = device
    self.limit = limit
  }
}
