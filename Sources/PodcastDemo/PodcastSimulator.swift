import AnalyticsHub
import Foundation
import PodcastPlayerFeature

/// The podcast app of seed 000 as a simulator: scripted user journeys with human-like timing,
/// driving a real hub.
///
/// Journeys: first launch with the onboarding timed event, browsing and playing podcasts from the
/// list and from favourites, favouriting, downloading (one that does not fit in storage), player
/// failures, logging in and out (authenticated and unauthenticated sessions with accessibility
/// settings), settings with autoplay and notification states, and a consent change that blocks the
/// marketing providers for a while. Equal seeds give equal journeys.
public final class PodcastSimulator {
  /// One thing the simulated user or app does, and how long the user waits before it.
  struct Step {
    var delay: TimeInterval
    var perform: (AnalyticsHub<PodcastTaxonomy>) -> Void
  }

  private let hub: AnalyticsHub<PodcastTaxonomy>
  /// The player feature, sending its own tags through the hub.
  private let player: PodcastPlayer
  private var random: SeededGenerator
  private var pending: [Step] = []
  private var pendingIndex = 0
  private var launched = false
  private var loggedIn = false
  private var favorites: [Podcast] = []
  private var autoPlay = true
  private var marketingConsent = true
  private var journeyCount = 0
  private let opensWithTour: Bool

  /// A simulator driving `hub`.
  ///
  /// With `tour`, the first journeys are a quick tour (about 8 s of simulated time at a brisk
  /// pace): launch, then the moves that reach each of ``PodcastMappings/deliberateBugs`` once, so a
  /// first look at the debugger shows what it catches within seconds; human pace follows.
  public init(hub: AnalyticsHub<PodcastTaxonomy>, seed: UInt64, tour: Bool = false) {
    self.hub = hub
    player = PodcastPlayer(tracker: hub.scoped(to: PlayerInPodcastApp.self))
    random = SeededGenerator(seed: seed)
    opensWithTour = tour
  }

  /// Performs the next step on the hub and returns the simulated seconds the user waits before
  /// the following one.
  @discardableResult
  public func step() -> TimeInterval {
    if pendingIndex >= pending.count {
      pending = nextJourney()
      pendingIndex = 0
    }
    let current = pending[pendingIndex]
    pendingIndex += 1
    current.perform(hub)
    return pendingIndex < pending.count ? pending[pendingIndex].delay : thinkTime(2...8)
  }

  // MARK: Journeys

  private func nextJourney() -> [Step] {
    journeyCount += 1
    if !launched {
      launched = true
      return opensWithTour ? launchJourney(brisk: true) + tourJourney() : launchJourney()
    }
    let roll = Int.random(in: 0..<100, using: &random)
    switch roll {
    case 0..<30: return listenJourney(from: .podcasts)
    case 30..<45: return favoritesJourney()
    case 45..<55: return listenJourney(from: favorites.isEmpty ? .podcasts : .favorites)
    case 55..<67: return downloadJourney()
    case 67..<77: return loggedIn ? logoutJourney() : loginJourney()
    case 77..<87: return settingsJourney()
    case 87..<93: return consentJourney()
    default: return playerFailureJourney()
    }
  }

  /// First launch; `brisk` shortens the onboarding to the tour's pace.
  private func launchJourney(brisk: Bool = false) -> [Step] {
    let voiceOver = Bool.random(using: &random)
    let notifications = Bool.random(using: &random)
    return [
      step(0) {
        $0.startSession(properties: [
          "voiceOver": .bool(voiceOver), "dynamicType": "large", "app_version": "3.2.0",
        ])
      },
      step(0.2) { $0.start(timedEvent: .onboarding) },
      step(0.1) { $0.send(screen: .onboarding) },
      step(brisk ? 0.6 : thinkTime(4...12)) { $0.send(state: .remoteNotificationAuthorized(notifications)) },
      step(brisk ? 0.5 : thinkTime(3...9)) { $0.stop(timedEvent: .onboarding) },
      step(0.3) { [player, autoPlay] _ in player.setAutoPlay(autoPlay) },
      step(0.2) { $0.send(screen: .podcasts) },
    ]
  }

  /// The opening tour: a favourite (double-fired) played (play reported before load) and paused
  /// from Favorites (Piano's and Firebase's Favorites bugs), removed from the player screen (Firebase's 40-character limit), and a download
  /// that does not fit (Braze's `$` key), each step a fraction of a second apart.
  private func tourJourney() -> [Step] {
    let podcast = pickPodcast()
    let largest = Podcast.catalogue.max { $0.sizeBytes < $1.sizeBytes }!
    let available = largest.sizeBytes / 4
    favorites = []
    return [
      step(0.4) { $0.send(userAction: .addPodcastToFavorite(podcast)) },
      // Deliberate journey bugs (DemoPlan.journeyBugs): a double-fired favourite, and the player
      // reporting play before load.
      step(0.1) { $0.send(userAction: .addPodcastToFavorite(podcast)) },
      step(0.2) { $0.send(state: .favorites([podcast])) },
      step(0.4) { $0.send(screen: .favorites) },
      step(0.5) { [player] _ in player.play(podcast) },
      step(0.2) { [player] _ in player.didPlay() },
      step(0.3) { [player] _ in player.didLoad() },
      step(0.1) { [player] _ in player.startListening() },
      step(0.5) { [player] _ in player.pause() },
      step(0.2) { [player] _ in player.didStop(at: 42) },
      step(0.1) { [player] _ in player.stopListening() },
      step(0.4) { $0.send(userAction: .openPodcast(podcast)) },
      step(0.3) { [player] _ in player.show() },
      step(0.6) { $0.send(userAction: .removePodcastFromFavorite(podcast)) },
      step(0.2) { $0.send(state: .favorites([])) },
      step(0.4) { $0.send(screen: .podcasts) },
      step(0.6) { $0.send(userAction: .downloadPodcast(largest)) },
      step(0.4) {
        $0.send(event: .notEnoughStorageSpaceForDownload(largest, availableBytes: available))
      },
    ]
  }

  /// Plays a podcast from `source`; about half the time the user opens the full player, otherwise
  /// they pause from the mini player on the same screen.
  private func listenJourney(from source: PodcastScreen) -> [Step] {
    let podcast = source == .favorites ? favorites.randomElement(using: &random)! : pickPodcast()
    let listened = Int.random(in: 20...600, using: &random)
    let opensPlayer = Bool.random(using: &random)
    var steps: [Step] = [
      show(source),
      step(thinkTime(2...6)) { [player] _ in player.play(podcast) },
      step(0.4) { [player] _ in player.didLoad() },
      step(0.3) { [player] _ in player.didPlay() },
      step(0.1) { [player] _ in player.startListening() },
    ]
    if opensPlayer {
      steps.append(step(thinkTime(1...2)) { $0.send(userAction: .openPodcast(podcast)) })
      steps.append(step(0.3) { [player] _ in player.show() })
    }
    let pauses = Int.random(in: 0...2, using: &random)
    for _ in 0..<pauses {
      steps.append(step(thinkTime(10...60)) { [player] _ in player.pause() })
      steps.append(step(thinkTime(3...20)) { [player] _ in player.play(podcast) })
    }
    steps.append(step(thinkTime(20...90)) { [player] _ in player.pause() })
    steps.append(step(0.2) { [player] _ in player.didStop(at: listened) })
    steps.append(step(0.1) { [player] _ in player.stopListening() })
    return steps
  }

  /// Adds or removes a favourite, from the list or (one time in three) from the player screen.
  private func favoritesJourney() -> [Step] {
    let podcast = pickPodcast()
    let fromPlayer = Int.random(in: 0..<3, using: &random) == 0
    var steps: [Step] =
      fromPlayer
      ? [
        show(.podcasts), step(thinkTime(1...3)) { $0.send(userAction: .openPodcast(podcast)) },
        step(0.3) { [player] _ in player.show() },
      ]
      : [show(.podcasts)]
    if let index = favorites.firstIndex(of: podcast) {
      favorites.remove(at: index)
      steps.append(step(thinkTime(2...5)) { $0.send(userAction: .removePodcastFromFavorite(podcast)) })
    } else {
      favorites.append(podcast)
      steps.append(step(thinkTime(2...5)) { $0.send(userAction: .addPodcastToFavorite(podcast)) })
    }
    let snapshot = favorites
    steps.append(step(0.2) { $0.send(state: .favorites(snapshot)) })
    steps.append(step(thinkTime(1...4)) { $0.send(screen: .favorites) })
    return steps
  }

  private func downloadJourney() -> [Step] {
    let podcast = pickPodcast()
    let available = Int.random(in: 20_000_000...600_000_000, using: &random)
    var steps: [Step] = [
      show(.podcasts),
      step(thinkTime(2...5)) { $0.send(userAction: .downloadPodcast(podcast)) },
    ]
    if podcast.sizeBytes > available {
      steps.append(
        step(0.5) { $0.send(event: .notEnoughStorageSpaceForDownload(podcast, availableBytes: available)) })
    } else {
      steps.append(step(thinkTime(3...10)) { $0.send(screen: .downloads) })
      switch Int.random(in: 0..<3, using: &random) {
      case 0: steps.append(step(thinkTime(3...8)) { $0.send(userAction: .deletePodcast(podcast)) })
      case 1:
        steps.append(step(thinkTime(2...6)) { [player] _ in player.play(podcast) })
        steps.append(step(thinkTime(20...90)) { [player] _ in player.pause() })
      default: break
      }
    }
    return steps
  }

  private func loginJourney() -> [Step] {
    loggedIn = true
    let userNumber = Int.random(in: 1...999, using: &random)
    let user = AnalyticsUser(
      id: "user-\(1000 + userNumber)", traits: ["plan": userNumber % 3 == 0 ? "premium" : "free"])
    let voiceOver = Bool.random(using: &random)
    return [
      show(.login),
      step(thinkTime(5...15)) {
        $0.send(userAction: .login(method: userNumber % 2 == 0 ? "apple" : "email"))
      },
      step(0.6) { $0.identify(user) },
      step(0.1) {
        $0.startSession(
          user: user,
          properties: ["voiceOver": .bool(voiceOver), "dynamicType": "large", "app_version": "3.2.0"])
      },
      step(0.3) { $0.send(screen: .podcasts) },
    ]
  }

  private func logoutJourney() -> [Step] {
    loggedIn = false
    return [
      show(.settings),
      step(thinkTime(2...6)) { $0.send(userAction: .logout) },
      step(0.2) { $0.reset() },
      step(0.1) {
        $0.startSession(properties: ["voiceOver": false, "dynamicType": "default", "app_version": "3.2.0"])
      },
      step(0.4) { $0.send(screen: .login) },
    ]
  }

  private func settingsJourney() -> [Step] {
    autoPlay.toggle()
    let value = autoPlay
    let voiceOver = Bool.random(using: &random)
    return [
      show(.settings),
      step(thinkTime(2...6)) { [player] _ in player.setAutoPlay(value) },
      step(thinkTime(2...6)) { $0.updateSession(properties: ["voiceOver": .bool(voiceOver)]) },
      step(thinkTime(1...3)) { $0.send(state: .remoteNotificationAuthorized(!voiceOver)) },
    ]
  }

  private func consentJourney() -> [Step] {
    marketingConsent.toggle()
    let granted = marketingConsent
    return [
      show(.settings),
      step(thinkTime(3...8)) { $0.setConsent(granted, for: .category(.marketing)) },
    ]
  }

  private func playerFailureJourney() -> [Step] {
    let podcast = pickPodcast()
    let errors = ["NSURLErrorTimedOut", "AVErrorMediaServicesWereReset", "HTTP 503"]
    let error = errors.randomElement(using: &random)!
    return [
      show(.podcasts),
      step(thinkTime(2...5)) { [player] _ in player.play(podcast) },
      step(0.8) { [player] _ in player.didFail(error: error) },
    ]
  }

  // MARK: Helpers

  private func pickPodcast() -> Podcast { Podcast.catalogue.randomElement(using: &random)! }

  private func thinkTime(_ range: ClosedRange<Double>) -> TimeInterval {
    (Double.random(in: range, using: &random) * 10).rounded() / 10
  }

  /// Navigates to `screen` unless the user is already on it (no repeated screen views).
  private func show(_ screen: PodcastScreen) -> Step {
    step(thinkTime(1...3)) { hub in
      if hub.context.currentScreen != screen { hub.send(screen: screen) }
    }
  }

  private func step(_ delay: TimeInterval, _ perform: @escaping (AnalyticsHub<PodcastTaxonomy>) -> Void)
    -> Step
  {
    Step(delay: delay, perform: perform)
  }
}
