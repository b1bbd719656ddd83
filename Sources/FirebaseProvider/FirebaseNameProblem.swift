import AnalyticsProvidersCore

/// What is wrong with an event, parameter or user property name under GA4's naming rules
/// (``FirebaseLimits``): the one check the hub's ``FirebaseRules`` and `tagscope listen`'s
/// Measurement Protocol validator both run, each wording the finding its own way.
///
/// The first failing check is reported, in this order: present, starting with a letter, only
/// letters, digits and underscores (of any script), no longer than its limit, not reserved.
public enum FirebaseNameProblem: Sendable, Hashable {
  /// Not shaped as a name must be (see ``Flaw``).
  case malformed(Flaw)
  /// Starts with one of ``FirebaseLimits/reservedPrefixes``.
  case reservedPrefix(String)
  /// One of the reserved names (automatically collected events, reserved user properties).
  case reservedName

  /// How a malformed name breaks the naming rules.
  public enum Flaw: Sendable, Hashable {
    /// The name is empty.
    case empty
    /// The first character is not a letter.
    case notStartingWithLetter
    /// A character other than a letter, a digit or an underscore.
    case invalidCharacters
    /// Longer than the limit; `length` in UTF-16 code units (``FirebaseLimits/length(_:)``).
    case tooLong(length: Int)
  }

  /// The problem with event name `name`, or `nil`; `reserved` is the stream's reserved event names
  /// (``FirebaseLimits/reservedEventNames`` for apps, ``FirebaseLimits/webReservedEventNames``
  /// for web streams).
  public static func event(_ name: String, reserved: Set<String> = FirebaseLimits.reservedEventNames) -> Self?
  {
    if let flaw = flaw(name, maximumLength: FirebaseLimits.maximumNameLength) { return .malformed(flaw) }
    if let prefix = FirebaseLimits.reservedPrefix(of: name) { return .reservedPrefix(prefix) }
    return reserved.contains(name) ? .reservedName : nil
  }

  /// The problem with event parameter name `name`, or `nil`.
  public static func parameter(_ name: String) -> Self? {
    if let flaw = flaw(name, maximumLength: FirebaseLimits.maximumNameLength) { return .malformed(flaw) }
    return FirebaseLimits.reservedPrefix(of: name).map(Self.reservedPrefix)
  }

  /// The problem with user property name `name`, or `nil`.
  public static func userProperty(_ name: String) -> Self? {
    if let flaw = flaw(name, maximumLength: FirebaseLimits.maximumUserPropertyNameLength) {
      return .malformed(flaw)
    }
    if let prefix = FirebaseLimits.reservedPrefix(of: name) { return .reservedPrefix(prefix) }
    return FirebaseLimits.reservedUserPropertyNames.contains(name) ? .reservedName : nil
  }

  /// What keeps `name` from being letters, digits and underscores starting with a letter, at most
  /// `maximumLength` long, or `nil`.
  private static func flaw(_ name: String, maximumLength: Int) -> Flaw? {
    if TextChecks.isLetterDigitUnderscoreStartingWithLetter(name) {
      let length = FirebaseLimits.length(name)
      return length > maximumLength ? .tooLong(length: length) : nil
    }
    if name.isEmpty { return .empty }
    return TextChecks.startsWithLetter(name) ? .invalidCharacters : .notStartingWithLetter
  }
}
