/// A tracker of a feature's tags that sends each of them, embedded as the app's tag, to the app's
/// tracker (its hub): what an app hands a feature module, which can then send only its own tags.
///
/// ```swift
/// let player = PlayerModel(tracker: hub.scoped(to: PlaybackInApp.self))  // it can send PlaybackAction only
/// player.play(episode: "42")  // the hub gets AppAction.playback(.play(episode: "42")), named "play"
/// ```
///
/// The feature depends on `AnalyticsTracking` of its own taxonomy (`some` or
/// `any AnalyticsTracking<PlaybackTaxonomy>`), so its tests give it a `RecordingTracker` instead.
public struct ScopedTracker<Embedding: FeatureEmbedding, Base: AnalyticsTracking>: AnalyticsTracking
where Base.T == Embedding.App {
  public typealias T = Embedding.Feature
  /// The app's tracker the feature's tags go to.
  public let base: Base

  /// A tracker sending the feature's tags, embedded, to `base`.
  public init(_ base: Base, embedding: Embedding.Type = Embedding.self) { self.base = base }

  public func send(screen: T.Screen) { base.send(screen: Embedding.embed(screen: screen)) }
  public func send(userAction: T.UserAction) {
    base.send(userAction: Embedding.embed(userAction: userAction))
  }
  public func send(event: T.Event) { base.send(event: Embedding.embed(event: event)) }
  public func send(state: T.State) { base.send(state: Embedding.embed(state: state)) }
  public func start(timedEvent: T.TimedEvent) {
    base.start(timedEvent: Embedding.embed(timedEvent: timedEvent))
  }
  public func stop(timedEvent: T.TimedEvent) {
    base.stop(timedEvent: Embedding.embed(timedEvent: timedEvent))
  }
  public func cancel(timedEvent: T.TimedEvent) {
    base.cancel(timedEvent: Embedding.embed(timedEvent: timedEvent))
  }
  public func flush() { base.flush() }
}

extension AnalyticsTracking {
  /// A tracker of a feature's tags that sends them, embedded as this tracker's tags, here.
  public func scoped<Embedding: FeatureEmbedding>(
    to embedding: Embedding.Type
  ) -> ScopedTracker<Embedding, Self> where Embedding.App == T {
    ScopedTracker(self, embedding: embedding)
  }
}
