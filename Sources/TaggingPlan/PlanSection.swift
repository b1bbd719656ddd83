import AnalyticsHub

/// The sections of a plan, one per kind of app tag.
public enum PlanSection: Int, Sendable, Hashable, CaseIterable {
  case screens
  case actions
  case events
  case states
  case timed

  /// The YAML key (`screens`, `actions`, `events`, `states`, `timed`).
  public var key: String {
    switch self {
    case .screens: return "screens"
    case .actions: return "actions"
    case .events: return "events"
    case .states: return "states"
    case .timed: return "timed"
    }
  }

  /// The singular word used in messages and coverage (`screen`, `action`…).
  public var noun: String {
    switch self {
    case .screens: return "screen"
    case .actions: return "action"
    case .events: return "event"
    case .states: return "state"
    case .timed: return "timed"
    }
  }

  /// The section a record of `kind` is checked against; `nil` for the hub's lifecycle kinds
  /// (sessions, identify, reset, consent), which plans do not describe.
  public init?(kind: TagKind) {
    switch kind {
    case .screen: self = .screens
    case .userAction: self = .actions
    case .event: self = .events
    case .state: self = .states
    case .timedStart, .timedStop: self = .timed
    case .sessionStart, .sessionUpdate, .sessionEnd, .identify, .reset, .consent: return nil
    }
  }

  /// The section for a YAML key.
  public init?(key: String) {
    guard let section = Self.allCases.first(where: { $0.key == key }) else { return nil }
    self = section
  }
}
