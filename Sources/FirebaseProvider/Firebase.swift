import AnalyticsHub
import AnalyticsProvidersCore
import Foundation

/// Firebase Analytics (GA4 for apps): a provider with its rules attached, and helpers for
/// mappings.
///
/// ```swift
/// let firebase: Provider<PodcastTaxonomy> = Firebase.provider(adapter: FirebaseSDK()) { tag, context in
///   switch tag {
///   case .screen(.podcasts): return [.screenView(name: "show_podcasts")]
///   case .userAction(.playPodcast(let podcast)) where context.currentScreen == .favorites:
///     return [.logEvent("play_podcast_from_favorites", ["podcast_title": .string(podcast.title)])]
///   default: return []
///   }
/// }
/// ```
///
/// The provider's type names the app's taxonomy (`Provider<PodcastTaxonomy>`, or a typed
/// `Mapping<PodcastTaxonomy, FirebaseCall>`): a closure alone does not say which tags it maps.
public enum Firebase {
  /// The default provider identifier.
  public static let id: ProviderID = FirebaseRules.providerID

  /// A Firebase provider whose calls are checked against ``FirebaseRules``; distinct event and user
  /// property names are counted over the provider's lifetime (500 and 25 per app instance).
  ///
  /// - Parameters:
  ///   - id: Identifier (default `firebase`).
  ///   - category: Consent category (default `analytics`).
  ///   - environment: Where the provider is enabled (default: everywhere).
  ///   - adapter: The SDK bridge (``FirebaseAnalyticsAdapter``, `TestAdapter`, `DiscardingAdapter`).
  ///   - mapping: `(tag, context) -> [FirebaseCall]`.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, FirebaseCall>
  ) -> Provider<T> where Adapter.Call == FirebaseCall {
    let usage = FirebaseUsageCounter()
    return ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: { calls in usage.check(calls) }, mapping: mapping)
  }

  /// The closest equivalent of a timed event tag: `onboarding_start`, then `onboarding_stop` with
  /// a `duration` parameter in seconds (seed 003); `[]` for any other tag.
  public static func timedEvent<T: Taxonomy>(_ tag: Tag<T>, naming: TimedEventNaming = .snakeCase)
    -> [FirebaseCall]
  {
    guard let equivalent = tag.timedEquivalent(naming: naming) else { return [] }
    return [.logEvent(equivalent.name, equivalent.properties)]
  }

  /// One `setUserProperty` per property, names in snake_case and values as strings (Firebase user
  /// properties are strings); `null` clears the property.
  public static func userProperties(_ properties: Properties) -> [FirebaseCall] {
    properties.map { .setUserProperty($0.value.sdkString, forName: TagNaming.snakeCase($0.key)) }
  }

  /// The session's state and properties as user properties (seed 003), e.g. `session_state`,
  /// `voice_over`.
  public static func sessionUserProperties(_ session: Session?) -> [FirebaseCall] {
    userProperties(SessionBridge.properties(of: session))
  }
}

/// Counts distinct names across the calls of one provider, under a lock (the hub may send from
/// any thread).
final class FirebaseUsageCounter: @unchecked Sendable {
  private let lock = NSLock()
  private var usage = FirebaseUsage()

  func check(_ calls: [FirebaseCall]) -> [RuleViolation] {
    var violations: [RuleViolation] = []
    lock.lock()
    FirebaseRules.check(calls, usage: &usage, into: &violations)
    lock.unlock()
    return violations
  }
}
