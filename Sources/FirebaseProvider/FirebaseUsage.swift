/// What Firebase counts per app instance across calls: distinct event names (500 max) and
/// distinct user property names (25 max).
public struct FirebaseUsage: Sendable, Hashable {
  public var eventNames: Set<String> = []
  public var userPropertyNames: Set<String> = []
  /// Nothing counted yet.
  public init() {}

  /// Counts event name `name`; `false` when it would be one event type more than Firebase keeps.
  public mutating func admitEvent(_ name: String) -> Bool {
    Self.admit(name, into: &eventNames, tooMany: FirebaseLimits.hasTooManyEventTypes)
  }

  /// Counts user property `name`; `false` when it would be one user property more than Firebase
  /// keeps.
  public mutating func admitUserProperty(_ name: String) -> Bool {
    Self.admit(name, into: &userPropertyNames, tooMany: FirebaseLimits.hasTooManyUserProperties)
  }

  private static func admit(_ name: String, into names: inout Set<String>, tooMany: (Int) -> Bool) -> Bool {
    guard names.contains(name) || !tooMany(names.count + 1) else { return false }
    names.insert(name)
    return true
  }
}
