import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class ConsentTests: XCTestCase {
  private func providers(_ analytics: TestAdapter<TrackerCall>, _ marketing: TestAdapter<TrackerCall>)
    -> ProviderSet<PodcastTaxonomy>
  {
    [
      Provider(id: "firebase", category: .analytics, adapter: analytics, mapping: trackerMapping),
      Provider(id: "braze", category: .marketing, adapter: marketing, mapping: trackerMapping),
    ]
  }

  func testRevokingACategoryBlocksItsProvidersWithReason() throws {
    let analytics = TestAdapter<TrackerCall>()
    let marketing = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub(providers(analytics, marketing))
    hub.setConsent(false, for: .category(.marketing))
    hub.flush()
    XCTAssertEqual(recorder.last?.kind, .consent)
    XCTAssertEqual(recorder.last?.properties, ["scope": "category:marketing", "granted": false])
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(recorder.last?.outcome(for: "braze")?.status, .blocked(.consent))
    XCTAssertEqual(recorder.last?.outcome(for: "firebase")?.status, .sent)
    XCTAssertEqual(marketing.names, [])
    hub.setConsent(true, for: .category(.marketing))
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(marketing.names, ["show_podcasts"])
  }

  func testOptInDefaultBlocksEverythingUntilGranted() throws {
    let analytics = TestAdapter<TrackerCall>()
    let marketing = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub(providers(analytics, marketing), defaultConsent: false)
    hub.send(screen: .podcasts)
    hub.flush()
    // Issue 47: the observer first learns the hub's default, so a recording knows it.
    XCTAssertEqual(recorder.dispatches.first?.properties, ["default": false, "atAttach": true])
    XCTAssertEqual(
      ConsentDefault(properties: recorder.dispatches.first?.properties ?? [:]), ConsentDefault(granted: false)
    )
    XCTAssertEqual(recorder.last?.outcomes.map(\.status), [.blocked(.consent), .blocked(.consent)])
    hub.setConsent(true, for: .category(.analytics))
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(analytics.names, ["show_podcasts"])
    XCTAssertEqual(marketing.names, [])
  }

  func testProviderDecisionOverridesItsCategory() throws {
    let analytics = TestAdapter<TrackerCall>()
    let marketing = TestAdapter<TrackerCall>()
    let (hub, _) = try makeHub(providers(analytics, marketing))
    hub.setConsent(false, for: .category(.analytics))
    hub.setConsent(true, for: .provider("firebase"))
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(analytics.names, ["show_podcasts"])
  }

  func testEssentialProvidersNeedNoOptIn() {
    let consent = ConsentState(defaultGranted: false)
    XCTAssertTrue(consent.isGranted(provider: "crash", category: .essential))
    XCTAssertFalse(consent.isGranted(provider: "firebase", category: .analytics))
  }

  func testConsentTagReachesProvidersSoTheyCanTellTheirSDK() throws {
    let seen = TestAdapter<TrackerCall>()
    let mapping: Mapping<PodcastTaxonomy, TrackerCall> = { tag, _ in
      guard case .consent(let change) = tag else { return [] }
      return [.event(change.granted ? "consent_granted" : "consent_denied", [:])]
    }
    let (hub, _) = try makeHub([Provider(id: "braze", category: .marketing, adapter: seen, mapping: mapping)])
    hub.setConsent(false, for: .category(.marketing))
    hub.flush()
    XCTAssertEqual(seen.names, ["consent_denied"])
  }

  /// Consent restored at launch (or decided before a debugger attached) reaches an observer added
  /// later as its own `consent` dispatches, before the tags it then sees; earlier observers, which
  /// saw the decisions made, get nothing more.
  func testAnObserverAddedLaterFirstReceivesTheDecisionsHeld() throws {
    let analytics = TestAdapter<TrackerCall>()
    let marketing = TestAdapter<TrackerCall>()
    let (hub, early) = try makeHub(providers(analytics, marketing))
    hub.setConsent(false, for: .category(.analytics))
    hub.setConsent(true, for: .provider("braze"))
    let late = DispatchRecorder(observing: hub)
    hub.send(screen: .podcasts)
    hub.flush()
    XCTAssertEqual(
      late.dispatches.map(\.properties),
      [
        ["scope": "category:analytics", "granted": false, "atAttach": true],
        ["scope": "provider:braze", "granted": true, "atAttach": true],
        [:],
      ])
    XCTAssertEqual(late.dispatches.map(\.kind), [.consent, .consent, .screen])
    XCTAssertEqual(late.dispatches[0].outcomes, [], "nothing is sent to a provider again")
    XCTAssertEqual(late.last?.outcome(for: "firebase")?.status, .blocked(.consent))
    XCTAssertEqual(early.dispatches.map(\.kind), [.consent, .consent, .screen])
    XCTAssertEqual(
      early.dispatches.filter { $0.properties["atAttach"] != nil }, [], "the opt-out default is not told")
    XCTAssertEqual(analytics.names, [])
  }
}
