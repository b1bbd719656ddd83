import Foundation

/// How a feature module's tags sit inside the app's: for each tag kind, a case path that wraps a
/// feature tag as the app's tag (`embed`) and unwraps an app tag back into the feature's
/// (`extract`, `nil` when the app tag is not one of the feature's).
///
/// A feature module declares its own ``Taxonomy`` and depends only on `AnalyticsHub`; the app
/// embeds the feature's tags in its own (`AppAction.playback(PlaybackAction)`…), says how once, with
/// a type adopting this protocol, and hands the feature a tracker that can send only its tags
/// (``AnalyticsTracking/scoped(to:)``). Kinds the feature does not use (``NoTag``) need nothing:
///
/// ```swift
/// enum PlaybackInApp: FeatureEmbedding {
///   typealias Feature = PlaybackTaxonomy
///   typealias App = AppTaxonomy
///   static func embed(userAction: PlaybackAction) -> AppAction { .playback(userAction) }
///   static func extract(userAction: AppAction) -> PlaybackAction? {
///     if case .playback(let action) = userAction { action } else { nil }
///   }
/// }
/// let hub = try AnalyticsHub<AppTaxonomy>()
/// let player = PlayerModel(tracker: hub.scoped(to: PlaybackInApp.self))  // it can send PlaybackAction only
/// ```
///
/// A mapping written for the feature's tags becomes one for the app's with ``lift(_:)``.
///
/// The app's tag carries the feature tag's name and properties, so an embedding changes nothing a
/// provider or a recording sees; `extract(embed(tag))` must give `tag` back.
public protocol FeatureEmbedding: SendableMetatype {
  /// The feature's taxonomy.
  associatedtype Feature: Taxonomy
  /// The app's taxonomy the feature's tags are embedded in.
  associatedtype App: Taxonomy

  /// The app's screen for a feature screen.
  static func embed(screen: Feature.Screen) -> App.Screen
  /// The feature screen an app screen is, if it is one.
  static func extract(screen: App.Screen) -> Feature.Screen?
  /// The app's user action for a feature user action.
  static func embed(userAction: Feature.UserAction) -> App.UserAction
  /// The feature user action an app user action is, if it is one.
  static func extract(userAction: App.UserAction) -> Feature.UserAction?
  /// The app's event for a feature event.
  static func embed(event: Feature.Event) -> App.Event
  /// The feature event an app event is, if it is one.
  static func extract(event: App.Event) -> Feature.Event?
  /// The app's state for a feature state.
  static func embed(state: Feature.State) -> App.State
  /// The feature state an app state is, if it is one.
  static func extract(state: App.State) -> Feature.State?
  /// The app's timed event for a feature timed event.
  static func embed(timedEvent: Feature.TimedEvent) -> App.TimedEvent
  /// The feature timed event an app timed event is, if it is one.
  static func extract(timedEvent: App.TimedEvent) -> Feature.TimedEvent?
}

extension FeatureEmbedding where Feature.Screen: UninhabitedTag {
  public static func embed(screen: Feature.Screen) -> App.Screen { screen.absurd() }
  public static func extract(screen: App.Screen) -> Feature.Screen? { nil }
}

extension FeatureEmbedding where Feature.UserAction: UninhabitedTag {
  public static func embed(userAction: Feature.UserAction) -> App.UserAction { userAction.absurd() }
  public static func extract(userAction: App.UserAction) -> Feature.UserAction? { nil }
}

extension FeatureEmbedding where Feature.Event: UninhabitedTag {
  public static func embed(event: Feature.Event) -> App.Event { event.absurd() }
  public static func extract(event: App.Event) -> Feature.Event? { nil }
}

extension FeatureEmbedding where Feature.State: UninhabitedTag {
  public static func embed(state: Feature.State) -> App.State { state.absurd() }
  public static func extract(state: App.State) -> Feature.State? { nil }
}

extension FeatureEmbedding where Feature.TimedEvent: UninhabitedTag {
  public static func embed(timedEvent: Feature.TimedEvent) -> App.TimedEvent { timedEvent.absurd() }
  public static func extract(timedEvent: App.TimedEvent) -> Feature.TimedEvent? { nil }
}

extension FeatureEmbedding {
  /// The feature tag an app tag is: the feature's screens, user actions, events, states and timed
  /// events (with their durations); `nil` for the app's other tags and for the hub's lifecycle
  /// tags (sessions, identity, consent), which the app's own mapping handles.
  public static func extract(_ tag: Tag<App>) -> Tag<Feature>? {
    switch tag {
    case .screen(let screen): return extract(screen: screen).map(Tag.screen)
    case .userAction(let action): return extract(userAction: action).map(Tag.userAction)
    case .event(let event): return extract(event: event).map(Tag.event)
    case .state(let state): return extract(state: state).map(Tag.state)
    case .timedStart(let timed): return extract(timedEvent: timed).map(Tag.timedStart)
    case .timedStop(let timed, let duration):
      return extract(timedEvent: timed).map { .timedStop($0, duration: duration) }
    case .timedCancel(let timed, let duration):
      return extract(timedEvent: timed).map { .timedCancel($0, duration: duration) }
    case .sessionStart, .sessionUpdate, .sessionEnd, .identify, .reset, .consent:
      return nil
    }
  }

  /// The hub's context as the feature sees it: its own screens (the app's history from the last
  /// screen that is not the feature's, so `currentScreen` is `nil` while the app shows another
  /// screen), and the session, user, running timed events and consent as they are.
  public static func featureContext(_ context: HubContext<App>) -> HubContext<Feature> {
    var screens: [Feature.Screen] = []
    for screen in context.history.reversed() {
      guard let own = extract(screen: screen) else { break }
      screens.append(own)
    }
    return HubContext(
      history: screens.reversed(), session: context.session, user: context.user,
      timedEvents: context.timedEvents, consent: context.consent)
  }

  /// A feature's mapping as a mapping of the app's tags: the feature's tags reach `mapping` (with
  /// ``featureContext(_:)``), every other tag maps to no calls. Combine it with the app's own
  /// mapping with `Mappings.combined(_:)`.
  ///
  /// ```swift
  /// let firebase = Firebase.provider(
  ///   adapter: FirebaseSDK(), mapping: Mappings.combined(searchFirebase, PlaybackInApp.lift(playbackFirebase)))
  /// ```
  ///
  /// A call that depends on the app's screens (an event named after the screen it was sent from)
  /// belongs in the app's mapping, which sees every screen.
  public static func lift<Call: ProviderCall>(
    _ mapping: @escaping Mapping<Feature, Call>
  ) -> Mapping<App, Call> {
    { tag, context in
      guard let own = extract(tag) else { return [] }
      return mapping(own, featureContext(context))
    }
  }
}

/// A tag type without values, such as ``NoTag``: a feature's kind of this type needs no
/// embedding (``FeatureEmbedding`` provides it).
public protocol UninhabitedTag: AnalyticsTag {
  /// A value of any type; never called, as there is no tag to call it on.
  func absurd<Value>() -> Value
}

extension NoTag: UninhabitedTag {
  public func absurd<Value>() -> Value {
    switch self {}
  }
}
