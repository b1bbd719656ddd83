import Foundation

/// The context the hub keeps and hands to every mapping: screen history, current screen, session,
/// identified user, running timed events and consent.
///
/// For a screen tag the history already includes that screen; use ``previousScreen`` for the one
/// before.
public struct HubContext<T: Taxonomy>: Sendable {
  /// Screens, oldest first, bounded by ``HubConfiguration/historyLimit``.
  public internal(set) var history: [T.Screen] = []
  /// The active session.
  public internal(set) var session: Session?
  /// The identified user (kept across sessions until ``AnalyticsHub/reset()``).
  public internal(set) var user: AnalyticsUser?
  /// Running timed events by name, with their start time.
  public internal(set) var timedEvents: [String: Date] = [:]
  /// Consent decisions.
  public internal(set) var consent: ConsentState

  /// A context; hubs build their own, tests of a mapping build one with this.
  public init(
    history: [T.Screen] = [], session: Session? = nil, user: AnalyticsUser? = nil,
    timedEvents: [String: Date] = [:], consent: ConsentState = ConsentState(defaultGranted: true)
  ) {
    self.history = history
    self.session = session
    self.user = user
    self.timedEvents = timedEvents
    self.consent = consent
  }

  /// The screen on display.
  public var currentScreen: T.Screen? { history.last }

  /// The screen displayed before the current one.
  public var previousScreen: T.Screen? { history.count >= 2 ? history[history.count - 2] : nil }

  /// The snapshot recorded with a dispatch.
  public var snapshot: ContextSnapshot {
    ContextSnapshot(
      screen: currentScreen?.name, history: history.map(\.name), session: session,
      timedEvents: timedEvents.keys.sorted())
  }
}
