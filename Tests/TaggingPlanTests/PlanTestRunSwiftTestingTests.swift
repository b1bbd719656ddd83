import AnalyticsHub
import PodcastDemo
import TaggingPlan
import Testing

/// The throwing requirements are the assertions of Swift Testing: no XCTest involved.
@Suite struct PlanTestRunSwiftTestingTests {
  let plan: Plan
  let hub: AnalyticsHub<PodcastTaxonomy>
  let run: PlanTestRun

  init() throws {
    plan = try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo-plan.yaml")
    hub = try AnalyticsHub<PodcastTaxonomy>(providers: PodcastMappings.providers())
    run = PlanTestRun(plan: plan, observing: hub)
  }

  @Test func aConformingTagPassesAndCovers() throws {
    hub.send(screen: .downloads)
    hub.send(userAction: .downloadPodcast(Podcast.catalogue[1]))
    try run.requireNoViolations()
    try run.requireCovered(tag: "downloadPodcast", screen: "downloads")
    try run.requireCovered("screen downloads: piano")
  }

  @Test func theFavoritesPauseBugThrowsThePlansMessage() throws {
    hub.send(screen: .favorites)
    hub.send(userAction: .pausePodcast(Podcast.catalogue[0]))
    let failure = try #require(throws: PlanTestFailure.self) { try run.requireNoViolations() }
    #expect(failure.violations.map(\.rule) == [.missingParam])
    #expect(failure.description.contains("has no parameter podcast_title, plan line"))
    #expect(throws: PlanTestFailure.self) { try run.requireCovered(tag: "pausePodcast", screen: "podcasts") }
  }
}
