import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class ProviderRegistryTests: XCTestCase {
  func testDuplicateIdentifierIsAClearError() throws {
    let (hub, _) = try makeHub([
      Provider(id: "firebase", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping)
    ])
    XCTAssertThrowsError(
      try hub.register(Provider(id: "firebase", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping))
    ) {
      XCTAssertEqual($0 as? HubError, .duplicateProvider("firebase"))
      XCTAssertTrue(String(describing: $0).contains("'firebase' is already registered"))
    }
    XCTAssertEqual(hub.providerIDs, ["firebase"])
  }

  func testDuplicatesAcrossCombinedSetsAreRejected() {
    let first: ProviderSet<PodcastTaxonomy> = [
      Provider(id: "a", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping)
    ]
    let second: ProviderSet<PodcastTaxonomy> = [
      Provider(id: "a", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping)
    ]
    XCTAssertEqual(first.combined(with: second).ids, ["a", "a"])
    XCTAssertThrowsError(try AnalyticsHub(providers: first.combined(with: second))) {
      XCTAssertEqual($0 as? HubError, .duplicateProvider("a"))
    }
  }

  /// Providers built in an array (a variable, one per build configuration) make a hub as a
  /// literal does, duplicates refused alike.
  func testAnArrayOfProvidersMakesAHub() throws {
    var providers: [Provider<PodcastTaxonomy>] = [
      Provider(id: "a", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping)
    ]
    providers.append(Provider(id: "b", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping))
    XCTAssertEqual(try AnalyticsHub(providers: providers).providerIDs, ["a", "b"])
    providers.append(Provider(id: "a", adapter: TestAdapter<TrackerCall>(), mapping: trackerMapping))
    XCTAssertThrowsError(try AnalyticsHub(providers: providers)) {
      XCTAssertEqual($0 as? HubError, .duplicateProvider("a"))
    }
  }

  func testSetupRunsOnceOnRegistration() throws {
    let adapter = TestAdapter<TrackerCall>()
    let (hub, _) = try makeHub([Provider(id: "a", adapter: adapter, mapping: trackerMapping)])
    hub.send(screen: .podcasts)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(adapter.setupCount, 1)
  }

  func testUnregisterAtRuntime() throws {
    let adapter = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "a", adapter: adapter, mapping: trackerMapping)])
    hub.send(screen: .podcasts)
    try hub.unregister("a")
    hub.send(screen: .podcastPlayer)
    hub.flush()
    XCTAssertEqual(adapter.names, ["show_podcasts"])
    XCTAssertEqual(recorder.last?.outcomes, [])
    XCTAssertThrowsError(try hub.unregister("a")) { XCTAssertEqual($0 as? HubError, .unknownProvider("a")) }
  }

  func testEnableAndDisableAtRuntime() throws {
    let adapter = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "a", adapter: adapter, mapping: trackerMapping)])
    try hub.setEnabled(false, for: "a")
    hub.flush()
    XCTAssertEqual(hub.isEnabled("a"), false)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: "a")?.status, .blocked(.disabled))
    try hub.setEnabled(true, for: "a")
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(adapter.names, ["show_podcasts"])
    XCTAssertThrowsError(try hub.setEnabled(true, for: "nope"))
  }

  func testCombinedTrackersForwardToBothHubs() throws {
    let paypal = TestAdapter<TrackerCall>()
    let venmo = TestAdapter<TrackerCall>()
    let (first, _) = try makeHub([Provider(id: "paypal", adapter: paypal, mapping: trackerMapping)])
    let (second, _) = try makeHub([Provider(id: "venmo", adapter: venmo, mapping: trackerMapping)])
    let combined = first.combined(with: second)
    combined.send(screen: .podcasts)
    combined.send(userAction: .playPodcast(swiftBySundell))
    combined.start(timedEvent: .onboarding)
    combined.stop(timedEvent: .onboarding)
    combined.flush()
    XCTAssertEqual(paypal.names, venmo.names)
    XCTAssertEqual(
      paypal.names, ["show_podcasts", "play_podcast_from_podcasts", "ONBOARDING_START", "ONBOARDING_STOP"])
  }
}
