/// Which effects the event loop has submitted and not yet had back, and which of those were asked
/// for again meanwhile.
///
/// An effect in flight is not submitted twice. But a read asked for again while it runs may have
/// started before what changed (a record's plan check ending just after the header facts were
/// read): dropping the second ask would leave the screen stale until something else changes. So a
/// read asked for again is run once more when its results come back; actions (an export, a seek,
/// a copy) are not repeated.
struct EffectLedger {
  private var inFlight: Set<Effect> = []
  private var askedAgain: Set<Effect> = []

  /// Notes that `effect` is wanted; `true` when it should be submitted now.
  mutating func ask(_ effect: Effect) -> Bool {
    if inFlight.insert(effect).inserted { return true }
    if effect.readsCurrentState { askedAgain.insert(effect) }
    return false
  }

  /// Notes that `effect`'s results came back; `true` when it should be submitted again (a read
  /// asked for while it ran), in which case it is in flight again.
  mutating func finished(_ effect: Effect) -> Bool {
    guard askedAgain.remove(effect) != nil else {
      inFlight.remove(effect)
      return false
    }
    return true
  }
}

extension Effect {
  /// Whether the effect only reads what the source holds now, so running it again gives the
  /// newer answer and nothing else (rows, the selection, the header facts, the checklist…).
  var readsCurrentState: Bool {
    switch self {
    case .loadRows, .loadSelection, .loadDetail, .loadChecklist, .loadComparisons, .loadTimes,
      .loadActivity, .loadSources, .loadInfo, .loadPair:
      return true
    case .filter, .findViolation, .findTime, .export, .draftPlanEntry, .addPlanEntry, .copyRecord,
      .copyToTmuxBuffer:
      return false
    }
  }
}
