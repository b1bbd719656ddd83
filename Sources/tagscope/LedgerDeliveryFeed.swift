import TagscopeLive
import TagscopeUI

/// The live session's ``DeliveryLedger`` as the debugger's ``DeliveryFeed``: one snapshot per
/// question, each entry under its in-app record's session position (the timeline's).
final class LedgerDeliveryFeed: DeliveryFeed {
  private let ledger: DeliveryLedger

  init(_ ledger: DeliveryLedger) { self.ledger = ledger }

  func statesByPosition() -> [Int: [String]] {
    var states: [Int: [String]] = [:]
    for entry in ledger.snapshot().entries {
      states[entry.position, default: []].append(entry.state.rawValue)
    }
    return states
  }
}
