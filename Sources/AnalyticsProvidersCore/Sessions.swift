import AnalyticsHub

/// Session state for providers that have no session concept (seed 003): the session's state
/// (`authenticated`/`unauthenticated`) and properties, to merge into event parameters or to set
/// as user properties.
public enum SessionBridge {
  /// The session's state under `stateKey`, then its properties; empty when there is no session.
  public static func properties(of session: Session?, stateKey: String = "session_state") -> Properties {
    guard let session else { return [:] }
    var properties: Properties = [stateKey: .string(session.state.rawValue)]
    for (key, value) in session.properties { properties[key] = value }
    return properties
  }

  /// `properties` with the session's state and properties merged in (the event's own values win).
  public static func merging(
    _ properties: Properties, with session: Session?, stateKey: String = "session_state"
  )
    -> Properties
  {
    guard session != nil else { return properties }
    return Self.properties(of: session, stateKey: stateKey).merging(properties)
  }
}

extension HubContext {
  /// The active session's state and properties (see ``SessionBridge``).
  public var sessionProperties: Properties { SessionBridge.properties(of: session) }
}
