import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// Issue 13 in the debugger: the checklist by state, `enter` on an item lists its records, the
/// `screen:` term, and the expected-vs-got view QA screenshots into a ticket.
final class QAResultsTests: XCTestCase {
  func testEnterOnAChecklistItemListsTheRecordsThatCoverIt() {
    let store = Fixtures.store()
    store.plan.set(
      summary: "plan Podcasts v3: 1/3 passed, 1 failing, 1 not seen",
      items: [
        ChecklistItem(text: "1/3 passed, 1 failing, 1 not seen · enter lists the records of an item"),
        ChecklistItem(
          text:
            "✗ failing (wrong-name) · action favoritePodcast on podcastPlayer: firebase · 1× · plan line 9",
          filter: "kind:action name:favoritePodcast screen:podcastPlayer provider:firebase"),
        ChecklistItem(
          text: "· not seen · screen downloads · plan line 4", filter: "kind:screen name:downloads"),
        ChecklistItem(
          text: "✓ passed · screen podcasts: firebase · 1× · plan line 3",
          filter: "kind:screen name:podcasts provider:firebase"),
      ])
    var state = Fixtures.state(store)
    state.type("c")
    guard case .detail(let checklist) = state.overlay else { return XCTFail("no checklist") }
    XCTAssertEqual(checklist.cursor, 1, "the cursor starts on the first item")
    let text = render(state).text
    XCTAssertTrue(text.contains("✗ failing (wrong-name) · action favoritePodcast"), text)
    XCTAssertTrue(text.contains("enter list its records"), "the footer says what enter does:\n\(text)")
    state.apply(.key(.enter))
    XCTAssertEqual(state.overlay, Overlay.none)
    XCTAssertEqual(
      state.filterText, "kind:action name:favoritePodcast screen:podcastPlayer provider:firebase")
    XCTAssertEqual(state.matches, [7], "the favoritePodcast record on podcastPlayer")
    state.type("c")
    state.type("jj")
    state.apply(.key(.enter))
    XCTAssertEqual(state.matches, [2], "screen podcasts: its one record")
    state.type("c")
    state.type("j")
    state.apply(.key(.enter))
    XCTAssertEqual(state.matches, [], "not seen: no record (the list says so)")
    XCTAssertTrue(render(state).text.contains("no record matches the filter"))
  }

  func testTheScreenTermIsTheScreenARecordHappenedOn() {
    var state = Fixtures.state()
    state.applyFilterForTest("screen:podcastPlayer")
    XCTAssertEqual(state.matches, [5, 6, 7, 8, 9], "podcastPlayer until favorites")
    state.applyFilterForTest("kind:action screen~player")
    XCTAssertEqual(state.matches, [7])
    state.applyFilterForTest("screen:nowhere")
    XCTAssertEqual(state.matches, [])
  }

  func testVShowsTheExpectationBesideWhatTheRecordCarried() {
    let store = Fixtures.store()
    store.plan.set(summary: "plan Podcasts v3: 3/16 passed, 1 failing")
    store.plan.set(
      [
        Comparison(
          rule: "plan.wrong-name",
          message:
            "removePodcastFromFavorite on podcastPlayer: firebase got remove_podcast_from_favorites_on_podcast_player_screen, plan line 119 expects remove_podcast_from_favorites",
          expectation: ExpectationComparison(
            planFile: "demo-plan.yaml", planLine: 119, title: "firebase remove_podcast_from_favorites",
            rows: [
              ExpectationComparison.Row(
                field: "call name", expected: "remove_podcast_from_favorites",
                actual: "remove_podcast_from_favorites_on_podcast_player_screen", differs: true),
              ExpectationComparison.Row(
                field: "param podcast_title", expected: "present", actual: "Radiolab", differs: false),
            ]))
      ], at: 10)
    store.timeline.setPlanViolations(1, at: 10)
    var state = Fixtures.state(store)
    state.type("v")
    XCTAssertEqual(state.overlay, Overlay.none, "record 1 breaks nothing")
    XCTAssertTrue(state.notice?.text.hasPrefix("this record breaks no rule") ?? false)
    state.type(":11")
    state.apply(.key(.enter))
    state.type("v")
    guard case .comparison(let view) = state.overlay else { return XCTFail("no comparison view") }
    XCTAssertEqual(view.items?.count, 2, "the plan's finding and the hub's rule violation on firebase")
    let text = render(state).text
    for expected in [
      "Expected vs got · #11  downloadPodcastWithAVeryLongName",
      "✗ firebase remove_podcast_from_favorites · plan.wrong-name · plan demo-plan.yaml:119",
      "field", "expected (plan)", "got (record)",
      "✗ call name", "remove_podcast_from_favorites", "  param podcast_title",
      "✗ firebase rule · firebase.event-name-length",
    ] {
      XCTAssertTrue(text.contains(expected), "lacks \(expected):\n\(text)")
    }
    assertGolden(text, "expected-vs-got-140x40")
    state.apply(.key(.escape))
    XCTAssertEqual(state.overlay, Overlay.none)
  }

  /// Issue 16: after a test suite's reset (`POST /tagscope/v1/reset`, a marker in the recording)
  /// the live header counts from there; the list keeps every record.
  func testAfterAResetTheHeaderCountsFromIt() throws {
    let records = Fixtures.podcastRecords()
    let store = Fixtures.store(Array(records.prefix(5)))
    try store.timeline.append(DropMarker(count: 0, time: Date(), origin: "reset", extra: ["segment": 2]))
    store.append(contentsOf: records[5...])
    var state = Fixtures.state(store, mode: .live)
    state.apply(.tick(now: 1001))
    let header = String(render(state).text.split(separator: "\n")[0])
    XCTAssertTrue(header.contains("─ 7 events since reset · 12 in all ─"), header)
    XCTAssertFalse(header.contains("dropped"), "a reset loses nothing")
    XCTAssertEqual(state.visibleCount, 12, "the list keeps every record")
  }

  /// Issue 15: `a` on a record drafts its tag's plan entry from the tag's records and previews it;
  /// `y` adds it (through the plan feed, which writes the file); without a plan, `a` says so.
  func testADraftsTheSelectedTagsPlanEntryAndYAddsIt() throws {
    let store = Fixtures.store()
    let position = try XCTUnwrap(
      (0..<store.count).first { (try? store.timeline.summary(at: $0).name) == "favoritePodcast" })
    var bare = Fixtures.state(store)
    bare.type(":\(position + 1)")
    bare.apply(.key(.enter))
    bare.type("a")
    XCTAssertEqual(bare.state.overlay, Overlay.none)
    XCTAssertTrue(
      bare.state.notice?.text.hasPrefix("no plan loaded") ?? false, "\(String(describing: bare.state.notice))"
    )

    store.plan.set(summary: "plan Podcasts v3: 3/16 passed, 1 unplanned")
    store.plan.set(
      draft: PlanEntryPreview(
        planFile: "plan.yaml", section: "actions", name: "favoritePodcast", label: "action favoritePodcast",
        text: """
            favoritePodcast:  # 1 record
              properties:
                podcast_title: {type: string, required: true}
              screens: [podcastPlayer]
              providers:
                firebase: {method: logEvent, name: favorite_podcast, params: [podcast_title]}  # 1 call

          """, screens: ["podcastPlayer"], records: 0))
    var state = Fixtures.state(store)
    state.type(":\(position + 1)")
    state.apply(.key(.enter))
    let (next, effects) = update(state.state, .key(.character("a")))
    XCTAssertEqual(effects.first, .draftPlanEntry(position), "update asks for the draft, reading nothing")
    guard case .planEntry(let loading) = next.overlay else { return XCTFail("no plan-entry overlay") }
    XCTAssertNil(loading.preview)
    state.type("a")
    guard case .planEntry(let view) = state.state.overlay else { return XCTFail("no plan-entry overlay") }
    XCTAssertEqual(view.preview?.records, 1, "drafted from the tag's own records")
    let text = render(state).text
    for expected in [
      "Add to the plan", "action favoritePodcast · drafted from 1 record", "actions:",
      "favoritePodcast:  # 1 record",
      "podcast_title: {type: string, required: true}",
      "y add it to plan.yaml (the rest of the file unchanged)",
    ] {
      XCTAssertTrue(text.contains(expected), "lacks \(expected):\n\(text)")
    }
    assertGolden(text, "plan-entry-140x40")
    state.type("y")
    XCTAssertEqual(state.state.overlay, Overlay.none)
    XCTAssertEqual(store.plan.added.map(\.name), ["favoritePodcast"])
    XCTAssertTrue(state.state.notice?.text.hasPrefix("added action favoritePodcast to plan.yaml:42") ?? false)
    // A tag the plan has: the feed says so and nothing opens.
    state.type(":1")
    state.apply(.key(.enter))
    state.type("a")
    XCTAssertEqual(state.state.overlay, Overlay.none)
    XCTAssertEqual(state.state.notice?.text, "already planned")
  }
}
