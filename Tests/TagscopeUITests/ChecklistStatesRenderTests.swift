import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// The checklist `c` and the header as the real plan checker words them, one item in each
/// coverage state — failing (some records broke it), blocked, not seen, passed — rendered.
final class ChecklistStatesRenderTests: XCTestCase {
  private static let plan = """
    plan: QA
    version: 2
    screens:
      favorites: {}
      downloads: {}
    actions:
      playPodcast:
        providers:
          firebase: {name: play_podcast}
      downloadPodcast:
        providers:
          braze: {name: podcast_downloaded}
    """

  private func records() -> [Record] {
    func firebase(_ name: String) -> ProviderOutput {
      ProviderOutput(
        provider: "firebase", status: .sent, calls: [CallDescription(method: "logEvent", name: name)])
    }
    let favorites = Fixtures.context(["favorites"])
    return [
      Fixtures.record(1, 0, .screen, "favorites", [:], favorites),
      Fixtures.record(2, 1, .userAction, "playPodcast", [:], favorites, [firebase("play_podcast")]),
      Fixtures.record(3, 2, .userAction, "playPodcast", [:], favorites, [firebase("play")]),
      Fixtures.record(4, 3, .userAction, "playPodcast", [:], favorites, [firebase("play_podcast")]),
      Fixtures.record(
        5, 4, .userAction, "downloadPodcast", [:], favorites,
        [ProviderOutput(provider: "braze", status: .blocked, reason: "consent")]),
    ]
  }

  func testEachCoverageStateInTheChecklistAndHeader() throws {
    let checker = PlanChecker(plan: try PlanLoader.load(yaml: Self.plan, file: "qa.yaml"))
    let records = records()
    for (index, record) in records.enumerated() { checker.check(record, at: index) }
    let store = Fixtures.store(records)
    store.plan.set(
      summary: checker.monitor.headerText,
      items: checker.checklistLines().map { .init(text: $0.text, filter: $0.filter) })
    var state = Fixtures.state(store)
    state.type("c")
    let text = render(state).text
    // The words every report uses: one broken record of three makes the item failing.
    XCTAssertTrue(
      text.contains("✗ failing · 1 of 3 broke it (wrong-name) · action playPodcast: firebase"), text)
    XCTAssertTrue(text.contains("⊘ blocked (consent) · action downloadPodcast: braze"), text)
    XCTAssertTrue(text.contains("· not seen · screen downloads"), text)
    XCTAssertTrue(text.contains("✓ passed · action playPodcast · 3×"), text)
    XCTAssertTrue(text.contains("✓ passed · screen favorites · 1×"), text)
    assertGolden(text, "checklist-states-140x40")
  }
}
