import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class ContextTests: XCTestCase {
  func testHistoryIsBoundedAndKeepsTheLatestScreens() throws {
    let (hub, recorder) = try makeHub([], historyLimit: 3)
    for screen in [PodcastScreen.podcasts, .podcastPlayer, .favorites, .downloads] {
      hub.send(screen: screen)
    }
    XCTAssertEqual(hub.context.history, [.podcastPlayer, .favorites, .downloads])
    XCTAssertEqual(hub.context.currentScreen, .downloads)
    XCTAssertEqual(hub.context.previousScreen, .favorites)
    hub.flush()
    XCTAssertEqual(recorder.last?.context.history, ["podcastPlayer", "favorites", "downloads"])
    XCTAssertEqual(recorder.last?.context.screen, "downloads")
  }

  func testDefaultHistoryLimitIsFive() throws {
    let (hub, _) = try makeHub([])
    for _ in 0..<4 { for screen in PodcastScreen.allCases { hub.send(screen: screen) } }
    XCTAssertEqual(hub.context.history.count, 5)
    XCTAssertEqual(HubConfiguration().historyLimit, 5)
  }

  func testActionsCarryTheCurrentScreenInTheirSnapshot() throws {
    let (hub, recorder) = try makeHub([])
    hub.send(screen: .podcasts)
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(swiftBySundell))
    hub.flush()
    let snapshot = try XCTUnwrap(recorder.last?.context)
    XCTAssertEqual(snapshot.screen, "favorites")
    XCTAssertEqual(snapshot.history, ["podcasts", "favorites"])
  }

  func testMappingSeesTheNewScreenAndThePreviousOne() throws {
    let seen = TestAdapter<TrackerCall>()
    let mapping: Mapping<PodcastTaxonomy, TrackerCall> = { tag, context in
      guard case .screen(let screen) = tag else { return [] }
      return [.event("from_\(context.previousScreen?.name ?? "none")_to_\(screen.name)", [:])]
    }
    let (hub, _) = try makeHub([Provider(id: "p", adapter: seen, mapping: mapping)])
    hub.send(screen: .podcasts)
    hub.send(screen: .favorites)
    hub.flush()
    XCTAssertEqual(seen.names, ["from_none_to_podcasts", "from_podcasts_to_favorites"])
  }
}
