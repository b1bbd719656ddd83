import AnalyticsHub
import AnalyticsProviders
import PodcastPlayerFeature

/// The demo app's mappings to every provider, written the way an app writes its own (seed 000's
/// `toThirdPartyTrackerEvent`, typed), and the providers built from them. Each is the app's own
/// mapping combined with the player feature's (``PlayerMappings``, lifted by ``PlayerInPodcastApp``).
///
/// The mappings contain a few deliberate tagging bugs (see ``deliberateBugs``) so that a first
/// run of `tagscope demo` shows what the debugger catches. Each bug affects a minority of events.
public enum PodcastMappings {
  /// Firebase Analytics: GA4 screen views, `play_podcast_from_<screen>` events, user properties.
  public static let firebase: Mapping<PodcastTaxonomy, FirebaseCall> = Mappings.combined(
    firebaseCalls, PlayerInPodcastApp.lift(PlayerMappings.firebase))
  /// Amplitude: "Object Action" events, user properties through `identify`.
  public static let amplitude: Mapping<PodcastTaxonomy, AmplitudeCall> = Mappings.combined(
    amplitudeCalls, PlayerInPodcastApp.lift(PlayerMappings.amplitude))
  /// Piano Analytics: `page.display` and `click.*` standard events.
  public static let piano: Mapping<PodcastTaxonomy, PianoCall> = Mappings.combined(
    pianoCalls, PlayerInPodcastApp.lift(PlayerMappings.piano))
  /// Braze: engagement events and custom attributes.
  public static let braze: Mapping<PodcastTaxonomy, BrazeCall> = Mappings.combined(
    brazeCalls, PlayerInPodcastApp.lift(PlayerMappings.braze))
  /// PayPal FPTI: every screen and action with its event type.
  public static let fpti: Mapping<PodcastTaxonomy, FPTICall> = Mappings.combined(
    fptiCalls, PlayerInPodcastApp.lift(PlayerMappings.fpti))
  /// Segment: screens, tracks, identify.
  public static let segment: Mapping<PodcastTaxonomy, SegmentCall> = Mappings.combined(
    segmentCalls, PlayerInPodcastApp.lift(PlayerMappings.segment))
  /// Mixpanel: tracks, native timed events, super properties.
  public static let mixpanel: Mapping<PodcastTaxonomy, MixpanelCall> = Mappings.combined(
    mixpanelCalls, PlayerInPodcastApp.lift(PlayerMappings.mixpanel))

  /// The deliberate tagging bugs of these mappings, one sentence each.
  public static let deliberateBugs: [String] = [
    "firebase: removing a favourite while on the player screen logs "
      + "'remove_podcast_from_favorites_on_podcast_player_screen' (54 characters; Firebase allows 40, "
      + "so the event is replaced by firebase_error code 2)",
    "firebase: pausing from the Favorites screen logs 'pause_podcast_from_favorites' without the "
      + "podcast_title parameter the plan requires",
    "piano: playing a podcast from the Favorites screen sends a click.action although the plan says "
      + "playPodcast must not reach Piano",
    "braze: the not-enough-storage event sends the property '$required_bytes'; Braze removes keys "
      + "starting with '$'",
  ]

  /// The providers `providers(…)` builds by default.
  public static let defaultProviders: [ProviderID] = [Firebase.id, Amplitude.id, Piano.id, Braze.id, FPTI.id]

  /// The demo providers, with each provider's rules attached.
  ///
  /// - Parameters:
  ///   - adapters: The SDK adapters (by default every provider discards its calls, so the inspector
  ///     shows what each SDK would have received).
  ///   - including: Which providers to build, in order (default ``defaultProviders``; add
  ///     `segment` and `mixpanel` for all seven).
  ///   - environment: Where the providers are enabled (default: everywhere).
  public static func providers(
    adapters: PodcastAdapters = PodcastAdapters(), including: [ProviderID] = defaultProviders,
    environment: EnvironmentSwitch = EnvironmentSwitch()
  ) -> ProviderSet<PodcastTaxonomy> {
    var providers: [Provider<PodcastTaxonomy>] = []
    for id in including {
      switch id {
      case Firebase.id:
        providers.append(
          Firebase.provider(environment: environment, adapter: adapters.firebase, mapping: firebase))
      case Amplitude.id:
        providers.append(
          Amplitude.provider(environment: environment, adapter: adapters.amplitude, mapping: amplitude))
      case Piano.id:
        providers.append(Piano.provider(environment: environment, adapter: adapters.piano, mapping: piano))
      case Braze.id:
        providers.append(Braze.provider(environment: environment, adapter: adapters.braze, mapping: braze))
      case FPTI.id:
        providers.append(FPTI.provider(environment: environment, adapter: adapters.fpti, mapping: fpti))
      case Segment.id:
        providers.append(
          Segment.provider(environment: environment, adapter: adapters.segment, mapping: segment))
      case Mixpanel.id:
        providers.append(
          Mixpanel.provider(environment: environment, adapter: adapters.mixpanel, mapping: mixpanel))
      default:
        continue
      }
    }
    return ProviderSet(providers)
  }
}

/// The SDK adapters the demo providers deliver to; each defaults to a `DiscardingAdapter`.
public struct PodcastAdapters: Sendable {
  public var firebase: any SDKAdapter<FirebaseCall>
  public var amplitude: any SDKAdapter<AmplitudeCall>
  public var piano: any SDKAdapter<PianoCall>
  public var braze: any SDKAdapter<BrazeCall>
  public var fpti: any SDKAdapter<FPTICall>
  public var segment: any SDKAdapter<SegmentCall>
  public var mixpanel: any SDKAdapter<MixpanelCall>

  /// Adapters; any not given discards its calls.
  public init(
    firebase: any SDKAdapter<FirebaseCall> = DiscardingAdapter<FirebaseCall>(),
    amplitude: any SDKAdapter<AmplitudeCall> = DiscardingAdapter<AmplitudeCall>(),
    piano: any SDKAdapter<PianoCall> = DiscardingAdapter<PianoCall>(),
    braze: any SDKAdapter<BrazeCall> = DiscardingAdapter<BrazeCall>(),
    fpti: any SDKAdapter<FPTICall> = DiscardingAdapter<FPTICall>(),
    segment: any SDKAdapter<SegmentCall> = DiscardingAdapter<SegmentCall>(),
    mixpanel: any SDKAdapter<MixpanelCall> = DiscardingAdapter<MixpanelCall>()
  ) {
    self.firebase = firebase
    self.amplitude = amplitude
    self.piano = piano
    self.braze = braze
    self.fpti = fpti
    self.segment = segment
    self.mixpanel = mixpanel
  }
}

extension Podcast {
  /// Title and duration, the payload of seed 000's `play_podcast`.
  var params: Properties {
    ["podcast_title": .string(title), "podcast_duration": .int(duration)]
  }
}

extension PodcastScreen {
  /// The screen as seed 000's tracker names it (`show_podcasts`).
  var trackedName: String { "show_" + TagNaming.snakeCase(rawValue) }

  /// The view controller class, for Firebase's `screen_class`.
  var screenClass: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() + "ViewController" }
}
