/// A tag the app sends: a screen, a user action, an event, a state or a timed event.
///
/// Apps define their tags as enums with associated values and adopt this protocol; the hub reads
/// only `name`, `properties` and `eventType`.
///
/// ```swift
/// enum PodcastAction: AnalyticsTag {
///   case playPodcast(Podcast)
///   var name: String { switch self { case .playPodcast: "playPodcast" } }
///   var properties: Properties {
///     switch self { case .playPodcast(let p): ["podcast_title": .string(p.title)] }
///   }
/// }
/// ```
public protocol AnalyticsTag: Sendable {
  /// The tag's name in the app's own tracking plan (`playPodcast`, `favorites`).
  var name: String { get }
  /// Typed properties carried by the tag; empty by default.
  var properties: Properties { get }
  /// A provider-specific refinement (PayPal FPTI's event type); defaults by tag kind.
  var eventType: EventType? { get }
}

extension AnalyticsTag {
  public var properties: Properties { [:] }
  public var eventType: EventType? { nil }
}

/// The kind of interaction, as PayPal FPTI classifies events (`e` parameter).
///
/// A tag that does not say gets the default for its kind (see ``TagKind/defaultEventType``), so
/// adding the refinement never breaks existing tags.
public enum EventType: String, Sendable, Hashable, CaseIterable {
  case activity = "ac"
  case click = "cl"
  case impression = "im"
  case redirect = "rd"
  case userAction = "ua"
}

/// The app's tag vocabulary: one type per tag kind.
///
/// Kinds an app does not use default to ``NoTag``.
public protocol Taxonomy: SendableMetatype {
  /// Screens (a screen was displayed). `Hashable` so mappings can compare the current screen.
  associatedtype Screen: AnalyticsTag & Hashable = NoTag
  /// User actions (taps, swipes…).
  associatedtype UserAction: AnalyticsTag = NoTag
  /// Events independent of the user (errors, playback ended…).
  associatedtype Event: AnalyticsTag = NoTag
  /// States and user properties (autoplay on, number of favourites…).
  associatedtype State: AnalyticsTag = NoTag
  /// Timed events (a start and a stop with a measured duration); matched by `name`.
  associatedtype TimedEvent: AnalyticsTag = NoTag
}

/// The tag type of a kind an app does not use; it has no values.
public enum NoTag: AnalyticsTag, Hashable {
  public var name: String {
    switch self {}
  }
}
