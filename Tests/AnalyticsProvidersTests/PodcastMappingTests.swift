import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import PodcastDemo
import XCTest

/// The demo mappings through a real hub, each provider on a `TestAdapter`.
final class PodcastMappingTests: XCTestCase {
  let radiolab = Podcast.catalogue[3]
  let clock = ManualClock()
  let firebase = TestAdapter<FirebaseCall>()
  let amplitude = TestAdapter<AmplitudeCall>()
  let piano = TestAdapter<PianoCall>()
  let braze = TestAdapter<BrazeCall>()
  let fpti = TestAdapter<FPTICall>()
  let segment = TestAdapter<SegmentCall>()
  let mixpanel = TestAdapter<MixpanelCall>()
  let recorder = DispatchRecorder()

  func makeHub(defaultConsent: Bool = true) throws -> AnalyticsHub<PodcastTaxonomy> {
    let adapters = PodcastAdapters(
      firebase: firebase, amplitude: amplitude, piano: piano, braze: braze, fpti: fpti, segment: segment,
      mixpanel: mixpanel)
    let providers = PodcastMappings.providers(
      adapters: adapters, including: PodcastMappings.defaultProviders + [Segment.id, Mixpanel.id])
    let hub = try AnalyticsHub(
      configuration: HubConfiguration(
        defaultConsent: defaultConsent, clock: clock.hubClock, makeSessionID: { "s-1" }),
      providers: providers)
    hub.addObserver(recorder)
    return hub
  }

  func violations(of provider: ProviderID) -> [String] {
    recorder.last?.outcome(for: provider)?.violations.map(\.rule) ?? []
  }

  // MARK: Firebase

  func testFirebasePlayOnFavoritesSendsPlayPodcastFromFavorites() throws {
    let hub = try makeHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(
      firebase.calls.last,
      .logEvent("play_podcast_from_favorites", ["podcast_title": "Radiolab", "podcast_duration": 3300]))
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(firebase.names.last, "play_podcast_from_podcasts")
    XCTAssertEqual(violations(of: Firebase.id), [])
  }

  func testFirebaseScreenViews() throws {
    let hub = try makeHub()
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(
      firebase.calls,
      [.logEvent("screen_view", ["screen_name": "show_podcasts", "screen_class": "PodcastsViewController"])])
  }

  func testFirebaseUserPropertiesIdentityAndErrors() throws {
    let hub = try makeHub()
    hub.send(state: .autoPlay(true))
    hub.flush()
    XCTAssertEqual(firebase.calls.last, .setUserProperty("true", forName: "autoplay_enabled"))
    hub.identify(AnalyticsUser(id: "u-42"))
    hub.flush()
    XCTAssertEqual(firebase.calls.last, .setUserID("u-42"))
    hub.reset()
    hub.flush()
    XCTAssertEqual(firebase.calls.last, .setUserID(nil))
    hub.send(event: .playerDidFail(radiolab, error: "timeout"))
    hub.flush()
    XCTAssertEqual(firebase.names.last, "player_error")
    hub.send(event: .notEnoughStorageSpaceForDownload(radiolab, availableBytes: 1_000))
    hub.flush()
    XCTAssertEqual(firebase.calls.last?.parameters["available_bytes"], 1_000)
  }

  func testFirebaseOnboardingTimedEventAndSession() throws {
    let hub = try makeHub()
    hub.startSession(properties: ["voiceOver": true])
    hub.flush()
    XCTAssertEqual(
      firebase.calls,
      [
        .setUserProperty("unauthenticated", forName: "session_state"),
        .setUserProperty("true", forName: "voice_over"),
      ])
    hub.start(timedEvent: .onboarding)
    clock.advance(by: 12.5)
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(
      firebase.calls.suffix(2),
      [.logEvent("onboarding_start", [:]), .logEvent("onboarding_stop", ["duration": 12.5])])
  }

  func testFirebaseDeliberateBugLongEventNameIsReportedWithErrorCode2() throws {
    let hub = try makeHub()
    hub.send(screen: .podcastPlayer)
    hub.send(userAction: .removePodcastFromFavorite(radiolab))
    hub.flush()
    let outcome = try XCTUnwrap(recorder.last?.outcome(for: Firebase.id))
    XCTAssertEqual(outcome.status, .sent, "the violation travels with the dispatch; the app keeps running")
    XCTAssertEqual(outcome.violations.map(\.rule), ["firebase.event-name-length"])
    XCTAssertEqual(outcome.violations.first?.errorCode, 2)
    XCTAssertEqual(firebase.names.last, "remove_podcast_from_favorites_on_podcast_player_screen")
    hub.send(screen: .favorites)
    hub.send(userAction: .removePodcastFromFavorite(radiolab))
    hub.flush()
    XCTAssertEqual(firebase.names.last, "remove_podcast_from_favorites")
    XCTAssertEqual(violations(of: Firebase.id), [])
  }

  func testFirebaseDeliberateBugPauseFromFavoritesLacksTitle() throws {
    let hub = try makeHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .pausePodcast(radiolab))
    hub.flush()
    XCTAssertEqual(firebase.calls.last, .logEvent("pause_podcast_from_favorites", ["podcast_duration": 3300]))
  }

  func testFirebaseAnalyticsConsent() throws {
    let hub = try makeHub()
    hub.setConsent(false, for: .category(.analytics))
    hub.flush()
    XCTAssertEqual(
      firebase.calls,
      [.setConsent(FirebaseConsent(analyticsStorage: .denied)), .setAnalyticsCollectionEnabled(false)])
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: Firebase.id)?.status, .blocked(.consent))
  }

  // MARK: Amplitude

  func testAmplitudePlayPodcastCarriesSourceScreen() throws {
    let hub = try makeHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(
      amplitude.calls.last,
      .track(
        eventType: "Play Podcast",
        eventProperties: [
          "podcast_title": "Radiolab", "podcast_duration": 3300, "source_screen": "favorites",
        ]))
    hub.send(state: .remoteNotificationAuthorized(false))
    hub.flush()
    XCTAssertEqual(amplitude.calls.last, .identify(userProperties: ["notifications": false]))
  }

  func testAmplitudeLoginLogoutAndOnboarding() throws {
    let hub = try makeHub()
    hub.identify(AnalyticsUser(id: "user-1234", traits: ["plan": "premium"]))
    hub.flush()
    XCTAssertEqual(
      amplitude.calls.suffix(2), [.setUserId("user-1234"), .identify(userProperties: ["plan": "premium"])])
    XCTAssertEqual(violations(of: Amplitude.id), [])
    hub.reset()
    hub.flush()
    XCTAssertEqual(amplitude.calls.last, .reset)
    hub.start(timedEvent: .onboarding)
    clock.advance(by: 3)
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(amplitude.names.suffix(2), ["Onboarding Started", "Onboarding Completed"])
  }

  func testAmplitudeShortUserIDIsReported() throws {
    let hub = try makeHub()
    hub.identify(AnalyticsUser(id: "u-1"))
    hub.flush()
    XCTAssertEqual(violations(of: Amplitude.id), ["amplitude.id-length"])
  }

  // MARK: Piano

  func testPianoPageDisplayAndDownloadClick() throws {
    let hub = try makeHub()
    hub.send(screen: .downloads)
    hub.flush()
    XCTAssertEqual(
      piano.calls.last,
      .sendEvent(name: "page.display", properties: ["page": "downloads", "page_chapter1": "library"]))
    hub.send(userAction: .downloadPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(piano.names.last, "click.download")
    XCTAssertEqual(violations(of: Piano.id), [])
  }

  func testPianoPlayIsDroppedExceptTheDeliberateFavoritesBug() throws {
    let hub = try makeHub()
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: Piano.id)?.status, .dropped)
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: Piano.id)?.status, .sent)
    XCTAssertEqual(piano.calls.last?.parameters["click"], "play_podcast")
  }

  // MARK: Braze

  func testBrazeIsGatedByMarketingConsent() throws {
    let hub = try makeHub()
    hub.setConsent(false, for: .category(.marketing))
    hub.send(userAction: .addPodcastToFavorite(radiolab))
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: Braze.id)?.status, .blocked(.consent))
    XCTAssertEqual(recorder.last?.outcome(for: Firebase.id)?.status, .sent)
    hub.setConsent(true, for: .category(.marketing))
    hub.send(userAction: .addPodcastToFavorite(radiolab))
    hub.flush()
    XCTAssertEqual(
      braze.calls.last,
      .logCustomEvent(
        name: "favorite_added", properties: ["podcast_title": "Radiolab", "podcast_duration": 3300]))
  }

  func testBrazeDeliberateBugDollarKeyIsReported() throws {
    let hub = try makeHub()
    hub.send(event: .notEnoughStorageSpaceForDownload(radiolab, availableBytes: 10))
    hub.flush()
    XCTAssertEqual(violations(of: Braze.id), ["braze.key-dollar"])
    XCTAssertEqual(braze.names.last, "download_failed")
  }

  func testBrazeAttributesAndUser() throws {
    let hub = try makeHub()
    hub.send(state: .favorites([radiolab]))
    hub.flush()
    XCTAssertEqual(braze.calls.last, .setCustomAttribute(key: "favorites_count", value: 1))
    hub.identify(AnalyticsUser(id: "u-42"))
    hub.flush()
    XCTAssertEqual(braze.calls.last, .changeUser(userId: "u-42"))
  }

  // MARK: FPTI, Segment, Mixpanel

  func testFPTIEventTypes() throws {
    let hub = try makeHub()
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(
      fpti.calls.last,
      .event(name: "show_podcasts", category: "catalogue", type: .impression, properties: [:]))
    hub.send(userAction: .openPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(fpti.calls.last?.parameters["e"], "rd")
    hub.send(userAction: .playPodcast(radiolab))
    hub.flush()
    XCTAssertEqual(fpti.calls.last?.parameters["e"], "cl")
    hub.send(event: .playerDidFail(radiolab, error: "timeout"))
    hub.flush()
    XCTAssertEqual(fpti.calls.last?.parameters["e"], "ac")
    XCTAssertEqual(violations(of: FPTI.id), [])
  }

  func testSegmentScreenTrackIdentify() throws {
    let hub = try makeHub()
    hub.send(screen: .podcastPlayer)
    hub.flush()
    XCTAssertEqual(
      segment.calls.last, .screen(title: "Podcast Player", category: "catalogue", properties: [:]))
    hub.send(userAction: .deletePodcast(radiolab))
    hub.flush()
    XCTAssertEqual(segment.names.last, "Delete Podcast")
    hub.identify(AnalyticsUser(id: "u-42", traits: ["plan": "free"]))
    hub.flush()
    XCTAssertEqual(segment.calls.last, .identify(userId: "u-42", traits: ["plan": "free"]))
  }

  func testMixpanelUsesItsOwnTimedEvents() throws {
    let hub = try makeHub()
    hub.start(timedEvent: .onboarding)
    hub.stop(timedEvent: .onboarding)
    hub.flush()
    XCTAssertEqual(
      mixpanel.calls, [.time(event: "Onboarding"), .track(event: "Onboarding", properties: [:])])
    hub.startSession(user: AnalyticsUser(id: "u-42"), properties: ["voiceOver": false])
    hub.flush()
    XCTAssertEqual(
      mixpanel.calls.last, .registerSuperProperties(["session_state": "authenticated", "voiceOver": false]))
  }

  // MARK: Deliberate bugs stay rare

  func testDeliberateBugsAffectAMinorityOfAPlausibleSession() throws {
    let hub = try makeHub()
    for podcast in Podcast.catalogue {
      hub.send(screen: .podcasts)
      hub.send(userAction: .openPodcast(podcast))
      hub.send(screen: .podcastPlayer)
      hub.send(userAction: .playPodcast(podcast))
      hub.send(userAction: .pausePodcast(podcast))
      hub.send(userAction: .addPodcastToFavorite(podcast))
      hub.send(userAction: .downloadPodcast(podcast))
    }
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(radiolab))
    hub.send(screen: .podcastPlayer)
    hub.send(userAction: .removePodcastFromFavorite(radiolab))
    hub.flush()
    let withViolations = recorder.dispatches.filter { $0.outcomes.contains { !$0.violations.isEmpty } }
    XCTAssertEqual(withViolations.map(\.name), ["removePodcastFromFavorite"])
    XCTAssertEqual(PodcastMappings.deliberateBugs.count, 4)
  }
}
