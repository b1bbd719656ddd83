import Foundation

/// A signed-in user, as associated with a session.
public struct AnalyticsUser: Sendable, Hashable {
  /// The app's stable user identifier.
  public var id: String
  /// User traits/properties known at login (plan, country…).
  public var traits: Properties

  /// A user with an identifier and optional traits.
  public init(id: String, traits: Properties = [:]) {
    self.id = id
    self.traits = traits
  }
}

/// The combined state of the user and the app for a stretch of use (seed 003): authenticated or not,
/// plus properties such as accessibility settings.
public struct Session: Sendable, Hashable {
  /// Whether a user is associated with the session.
  public enum State: String, Sendable, Hashable {
    case authenticated
    case unauthenticated
  }

  /// Unique identifier of the session.
  public var id: String
  /// The associated user, if any.
  public var user: AnalyticsUser?
  /// Session properties (accessibility settings, notification permission…).
  public var properties: Properties
  /// When the session started.
  public var startedAt: Date

  /// A session; usually created by ``AnalyticsHub/startSession(user:properties:)``.
  public init(id: String, user: AnalyticsUser? = nil, properties: Properties = [:], startedAt: Date) {
    self.id = id
    self.user = user
    self.properties = properties
    self.startedAt = startedAt
  }

  /// `authenticated` when a user is associated.
  public var state: State { user == nil ? .unauthenticated : .authenticated }
}
