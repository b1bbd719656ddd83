import AnalyticsHub
import TagscopeRecording

/// What `listen` remembers of one SDK device between its calls: its screens, session, user and the
/// user's traits. Small by construction: at most ``historyLimit`` screens of at most
/// ``nameLimit`` bytes, ``traitLimit`` traits of at most ``traitValueLimit`` bytes each.
struct DeviceState: Sendable {
  /// Screen names, oldest first, the current one last.
  private(set) var history: [String] = []
  /// The session the device's SDK last named.
  private(set) var sessionID: String?
  /// The identified user, `nil` while anonymous.
  private(set) var userID: String?
  /// The identified user's traits, from `identify` calls (kept until the user changes).
  private(set) var traits: Properties = [:]

  init() {}

  /// The state a record's context shows: its screens, session and user, as a recording being
  /// continued last left the device.
  init(restoring context: RecordContext) {
    history = context.history.suffix(Self.historyLimit).map(Self.clipped)
    if let session = context.session {
      sessionID = session.id.isEmpty ? nil : Self.clipped(session.id)
      userID = session.user.map(Self.clipped)
      if userID != nil { remember(session.properties) }
    }
  }

  static let historyLimit = 20
  static let nameLimit = 256
  static let traitLimit = 16
  static let traitValueLimit = 256

  /// Folds `event` into the state and returns the context its record carries: the current screen
  /// and history (a screen or page call moves them), the session and user as of the call.
  mutating func apply(_ event: IngestedEvent) -> RecordContext {
    if event.kind == .screen { show(event.name) }
    let identity = event.identity
    if let session = identity.sessionID { sessionID = Self.clipped(session) }
    if let user = identity.userID.map(Self.clipped) {
      if user != userID { traits = [:] }
      userID = user
    } else if identity.anonymousID != nil, userID != nil {
      // An anonymous call after an identified one: the app reset its user.
      userID = nil
      traits = [:]
    }
    // Traits of a user or visitor only (a Mixpanel `/groups` update names neither).
    if event.kind == .identify, identity.userID != nil || identity.anonymousID != nil {
      remember(Self.traits(of: event))
    }
    return RecordContext(
      screen: history.last, history: history, session: session(anonymousID: identity.anonymousID))
  }

  /// The session as recorded: `authenticated` only with an identified user.
  private func session(anonymousID: String?) -> RecordSession? {
    guard userID != nil || anonymousID != nil || sessionID != nil else { return nil }
    var extra = Properties()
    if userID == nil, let anonymousID { extra["anonymousId"] = .string(Self.clipped(anonymousID)) }
    return RecordSession(
      id: sessionID ?? "", state: userID == nil ? "unauthenticated" : "authenticated", user: userID,
      properties: traits, extra: extra)
  }

  private mutating func show(_ screen: String) {
    history.append(Self.clipped(screen))
    if history.count > Self.historyLimit { history.removeFirst(history.count - Self.historyLimit) }
  }

  private mutating func remember(_ values: Properties) {
    for (key, value) in values
    where key.utf8.count <= 64 && JSONText.value(value).utf8.count <= Self.traitValueLimit {
      guard traits[key] != nil || traits.count < Self.traitLimit else { continue }
      traits[key] = value
    }
  }

  /// What an identify call says of the user: the traits, or what Amplitude's `$set` and
  /// `$setOnce` operations and Mixpanel's `$set`/`$set_once` profile updates set.
  static func traits(of event: IngestedEvent) -> Properties {
    switch event.name {
    case "$set", "$set_once": return event.properties
    case "identify":
      var traits = Properties()
      var operations = false
      for key in ["$setOnce", "$set"] {
        if case .object(let values)? = event.properties[key] {
          operations = true
          for (name, value) in values { traits[name] = value }
        }
      }
      return operations ? traits : event.properties
    default: return [:]
    }
  }

  /// `text` cut to at most ``nameLimit`` UTF-8 bytes, on a character boundary.
  static func clipped(_ text: String) -> String {
    guard text.utf8.count > nameLimit else { return text }
    var result = ""
    var bytes = 0
    for character in text {
      let size = character.utf8.count
      guard bytes + size <= nameLimit - 3 else { break }
      result.append(character)
      bytes += size
    }
    return result + "…"
  }
}
