// swift-format-ignore-file
// The example of TaggingPlanTesting's catalog article "Plan assertions", verbatim
// (DocExamplesTests' DocExampleCoverageTests checks it), compiled and run.

import AmplitudeProvider
import AnalyticsHub
import BrazeProvider
import FPTIProvider
import FirebaseProvider
import PianoProvider
import PodcastDemo  // your app: its taxonomy and mappings
import TaggingPlan
import TaggingPlanTesting
import XCTest

final class PodcastTaggingPlanTests: XCTestCase {
  // Your real hub and mappings, and a run of your plan observing it (the plan can be a resource of
  // the test target: `PlanLoader.load(contentsOf: path)`).
  func makeHub() throws -> (AnalyticsHub<PodcastTaxonomy>, PlanTestRun) {
    let plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "podcasts-plan.yaml")
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: PodcastMappings.providers())
    // The rules of the providers the app links; checks every tag dispatched from now on.
    let rules: ProviderRuleChecks = [
      FirebaseRules.self, AmplitudeRules.self, PianoRules.self, BrazeRules.self, FPTIRules.self,
    ]
    return (hub, PlanTestRun(plan: plan, rules: rules, observing: hub))
  }

  func testPlayingFromThePodcastsScreenFollowsThePlan() throws {
    let (hub, run) = try makeHub()
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(Podcast.catalogue[0]))

    // The run flushes the hub before it is read, so it has seen every tag sent above.
    XCTAssertConformsToPlan(run)  // fails listing each violation: rule, plan line and message
    XCTAssertCovers(run, ["action playPodcast on podcasts: firebase"])
    XCTAssertCovers(run, tag: "playPodcast", screen: "podcasts")  // every provider's expectation there
  }

  func testPausingOnFavoritesIsCaught() throws {
    let (hub, run) = try makeHub()
    hub.send(screen: .favorites)
    hub.send(userAction: .pausePodcast(Podcast.catalogue[0]))

    // The throwing form, for Swift Testing too: `try run.requireNoViolations()`.
    XCTAssertThrowsError(try run.requireNoViolations()) { error in
      XCTAssertTrue("\(error)".contains("pause_podcast_from_favorites has no parameter podcast_title"))
    }
    let notYet = run.uncovered.map(\.id)  // what this test run has not covered yet
    XCTAssertTrue(notYet.contains("action playPodcast"))
  }
}
