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

  func calls(at position: Int) -> [CallDelivery] {
    ledger.entries(atPosition: position).map {
      CallDelivery(
        provider: $0.provider, callIndex: $0.callIndex, state: $0.state.rawValue, status: $0.answerStatus)
    }
  }

  func fingerprint() -> String {
    // Counts cover every state whatever the filter's; the state only limits the entries built.
    let counts = ledger.snapshot(DeliveryFilter(state: .ambiguous, limit: 0)).counts
    return DeliveryState.allCases.map { "\($0.rawValue) \(counts[$0] ?? 0)" }.joined(separator: ", ")
  }
}
