import AnalyticsHub
import PodcastDemo
import XCTest

@testable import TaggingPlan

final class DemoPlanTests: XCTestCase {
  func testDemoPlanLoadsAndCoversTheWholeTaxonomy() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    XCTAssertEqual(plan.title, "Podcasts v3")
    XCTAssertEqual(
      Set(plan.entries.filter { $0.section == .screens }.map(\.name)), Set(PodcastScreen.allCases.map(\.name)))
    let podcast = Podcast.catalogue[0]
    let actions: [PodcastAction] = [
      .playPodcast(podcast), .pausePodcast(podcast), .downloadPodcast(podcast), .deletePodcast(podcast),
      .addPodcastToFavorite(podcast), .removePodcastFromFavorite(podcast), .login(method: "email"), .logout,
      .openPodcast(podcast),
    ]
    let events: [PodcastEvent] = [
      .playerDidLoad(podcast), .playerDidPlay(podcast), .playerDidStop(podcast, position: 3),
      .playerDidFail(podcast, error: "network"), .notEnoughStorageSpaceForDownload(podcast, availableBytes: 10),
    ]
    let states: [PodcastState] = [.autoPlay(true), .favorites([podcast]), .remoteNotificationAuthorized(false)]
    let timed: [PodcastTimedEvent] = [.onboarding, .listening(podcast)]
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .actions }.map(\.name)), Set(actions.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .events }.map(\.name)), Set(events.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .states }.map(\.name)), Set(states.map(\.name)))
    XCTAssertEqual(Set(plan.entries.filter { $0.section == .timed }.map(\.name)), Set(timed.map(\.name)))
    for entry in plan.entries {
      XCTAssertEqual(
        Set(entry.providers.map(\.provider)), ["firebase", "amplitude", "piano", "braze", "fpti"], entry.label)
    }
    let play = try XCTUnwrap(plan.entry(section: .actions, name: "playPodcast"))
    XCTAssertEqual(play.properties?.map(\.name), ["podcast_id", "podcast_title", "podcast_duration"])
    XCTAssertEqual(plan.entry(section: .actions, name: "pausePodcast")?.properties, play.properties)
  }
}
