/// What a dispatched tag is; the `kind` field of a recording.
public enum TagKind: String, Sendable, Hashable, CaseIterable, Codable {
  case screen
  case userAction
  case event
  case state
  case timedStart
  case timedStop
  case sessionStart
  case sessionUpdate
  case sessionEnd
  case identify
  case reset
  case consent

  /// The FPTI event type a tag of this kind gets when it does not name one.
  @inlinable
  public var defaultEventType: EventType {
    switch self {
    case .screen: return .impression
    case .userAction: return .click
    default: return .activity
    }
  }
}
