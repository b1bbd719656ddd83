/// Provider parameters the hub's context supplies. A parameter the plan names that no property
/// holds is read from the context when its name says which value it is (`source_screen`, the
/// screen on display; `previous_screen`, the one before; `session_id`; `user_id`), as an app's
/// hand-written mapping reads it; any other stays a parameter the app passes with the tag.
enum ContextParameter {
  /// The context values by name, spelt without separators or case (`source_screen`, `sourceScreen`
  /// and `Source Screen` are one name).
  static let sources: [String: (expression: String, meaning: String)] = [
    "screen": (current, "the screen on display"),
    "screenname": (current, "the screen on display"),
    "currentscreen": (current, "the screen on display"),
    "sourcescreen": (current, "the screen on display"),
    "fromscreen": (current, "the screen on display"),
    "previousscreen": (previous, "the screen displayed before"),
    "referrerscreen": (previous, "the screen displayed before"),
    "sessionid": ("context.session.map { PropertyValue.string($0.id) } ?? .null", "the active session's id"),
    "userid": ("context.user.map { PropertyValue.string($0.id) } ?? .null", "the identified user's id"),
  ]

  private static let current = "context.currentScreen.map { PropertyValue.string($0.name) } ?? .null"
  private static let previous = "context.previousScreen.map { PropertyValue.string($0.name) } ?? .null"

  /// `source_screen` → `sourcescreen`.
  static func key(_ name: String) -> String {
    String(name.lowercased().unicodeScalars.filter { $0.properties.isAlphabetic || ("0"..."9").contains($0) })
  }

  /// The Swift expression (a `PropertyValue`, `.null` when the context has none) of a parameter
  /// named `name` in a mapping whose context is `context`, or `nil` when the context does not
  /// supply it.
  static func expression(_ name: String) -> String? { sources[key(name)]?.expression }

  /// What the context supplies for `name` (`the screen on display`).
  static func meaning(_ name: String) -> String? { sources[key(name)]?.meaning }

  /// The rule, for the generated mappings' doc comment, a line each.
  static let rule = [
    "A parameter no property holds is filled from the hub's context when its name says what it is",
    "(source_screen or screen: the screen on display; previous_screen; session_id; user_id); any",
    "other is a parameter of the tag's case (`providerParameters`).",
  ]
}
