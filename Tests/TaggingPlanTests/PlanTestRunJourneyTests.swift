import AnalyticsHub
import AnalyticsHubTesting
import Foundation
import PodcastDemo
import TaggingPlan
import XCTest

/// `PlanTestRun`'s `require…` (which `XCTAssertConformsToPlan` calls) fails on a journey finding, as on a schema one: the demo's double-fired
/// favourite (`duplicateWithin: 500ms`), sent through its real hub, as an app's unit test would.
final class PlanTestRunJourneyTests: XCTestCase {
  func testADoubleFireFailsTheRun() throws {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: ManualClock(), seed: 1)
    let run = PlanTestRun(plan: plan, observing: hub)
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(userAction: .addPodcastToFavorite(podcast))
    try run.requireNoViolations()
    hub.send(userAction: .addPodcastToFavorite(podcast))
    XCTAssertEqual(run.violations.map(\.rule), [.duplicate])
    XCTAssertThrowsError(try run.requireNoViolations()) { error in
      let description = (error as? PlanTestFailure)?.description ?? ""
      XCTAssertTrue(description.contains("error duplicate: "), description)
    }
  }
}
