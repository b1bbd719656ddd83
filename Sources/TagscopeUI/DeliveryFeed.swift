/// The delivery ledger as the debugger reads it (the `delivery:` filter key, the Providers pane's
/// delivery words): supplied by the live session that follows each provider call to the wire (the
/// CLI wires it in); the UI does not depend on how calls are matched.
public protocol DeliveryFeed: AnyObject, Sendable {
  /// The delivery state of each record's provider calls now, by timeline position, as
  /// ``Filter/deliveryStateWords`` names them (`delivered`, `queued`, `lost`…).
  func statesByPosition() -> [Int: [String]]
  /// The delivery of each provider call of the record at timeline `position` now (none when the
  /// ledger follows none of its calls).
  func calls(at position: Int) -> [CallDelivery]
  /// A text that changes whenever a call's state does (the counts per state), so the debugger
  /// reloads the selected record's deliveries only then.
  func fingerprint() -> String
}

/// One provider call's delivery, as the Providers pane shows it.
public struct CallDelivery: Sendable, Hashable {
  /// The provider whose output holds the call (`segment`).
  public var provider: String
  /// The call's index among its output's calls.
  public var callIndex: Int
  /// The state, one of ``Filter/deliveryStateWords``.
  public var state: String
  /// The vendor's answer (delivered, refused), when there was one.
  public var status: Int?

  /// A call's delivery.
  public init(provider: String, callIndex: Int, state: String, status: Int? = nil) {
    self.provider = provider
    self.callIndex = callIndex
    self.state = state
    self.status = status
  }

  /// The short words shown (`delivered 200`, `dropped by SDK`, `in flight`).
  public var words: String {
    let base: String
    switch state {
    case "droppedBySDK": base = "dropped by SDK"
    case "inFlight": base = "in flight"
    case "noWireSource": base = "no wire source"
    default: base = state
    }
    guard let status, state == "delivered" || state == "refused" else { return base }
    return "\(base) \(status)"
  }

  /// Its colour: green delivered; yellow queued, in flight, ambiguous; red lost, refused,
  /// dropped; dim no wire source.
  public var style: Style {
    switch state {
    case "delivered": return .success
    case "queued", "inFlight", "ambiguous": return .warning
    case "noWireSource": return .dim
    default: return .error
    }
  }
}
