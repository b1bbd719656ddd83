import AnalyticsHub

/// What a `consent` record decides for a plan's consent, read from its properties once: what
/// ``ConsentTracker`` applies to its device, for the record or for its line's digest.
enum ConsentDecision: Sendable, Hashable {
  /// The hub's default (``ConsentDefault``, recorded at attach), which applies over the plan's.
  case hubDefault(granted: Bool)
  /// A decision the plan's consent concerns, its scope under the plan's name for it
  /// (``PlanConsent/canonical(_:)``: a provider's one id, whichever of its names the record used).
  case change(ConsentChange)
  /// A decision of a category or provider the plan does not name: nothing to keep.
  case unconcerned
  /// No valid scope (category:NAME or provider:ID) and `granted`: the decision is not known.
  case unknown

  /// The decision of a `consent` record of `properties` for `consent`.
  init(properties: Properties, consent: PlanConsent) {
    if let recorded = ConsentDefault(properties: properties) {
      self = .hubDefault(granted: recorded.granted)
      return
    }
    guard var change = ConsentChange(properties: properties) else {
      self = .unknown
      return
    }
    guard consent.concerns(change.scope) else {
      self = .unconcerned
      return
    }
    change.scope = consent.canonical(change.scope)
    self = .change(change)
  }
}
