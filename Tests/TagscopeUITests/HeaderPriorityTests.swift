import XCTest

@testable import TagscopeUI

/// Issue 49: at 80×24 the header shrank to `plan: 6 errors`. It now gives way by priority: the
/// sparkline, the source label and the app name, then the plan's title and its `passed` and `not
/// seen` counts (``PlanHeaderWords``), so what is failing and how many errors stay.
final class HeaderPriorityTests: XCTestCase {
  static let summary = "plan Podcasts v3: 30 passed, 4 failing, 7 not seen, 6 errors, 1 warning"

  private func session(_ size: Size) -> UISession {
    let store = Fixtures.store()
    store.plan.set(summary: Self.summary)
    let source = InspectorTimelineSource(
      timeline: store.timeline,
      sourceLabel: "podcast app simulator · 4 deliberate tagging bugs · seed 1795519341", plan: store.plan)
    var state = UISession(source: source, mode: .live, size: size, now: 1000)
    state.apply(.tick(now: 1001))
    return state
  }

  func testTheHeaderKeepsWhatIsFailingAndHowManyAtEverySize() {
    for (width, height) in [(80, 24), (100, 30), (200, 50)] {
      let grid = render(session(Size(width: width, height: height)))
      let header = String(grid.text.split(separator: "\n")[0])
      for word in ["LIVE ●", "12 events", "4 failing", "6 errors", "1 warning"] {
        XCTAssertTrue(header.contains(word), "\(width)×\(height) lacks \(word): \(header)")
      }
      XCTAssertEqual(DisplayWidth.of(header), width)
      assertGolden(grid.text, "header-priority-\(width)x\(height)")
    }
  }

  func testTheNarrowFormsComeFromTheWordsTable() {
    XCTAssertEqual(PlanHeaderWords.essentials(of: Self.summary), "plan: 4 failing, 6 errors, 1 warning")
    XCTAssertEqual(
      PlanHeaderWords.essentials(of: "plan P: 3 passed, 1 error · re-checking 45%"),
      "plan: 1 error · re-checking 45%")
    XCTAssertNil(
      PlanHeaderWords.essentials(of: "plan P: 2 failing, 1 blocked, 0 errors"), "nothing to leave out")
  }

  /// The footer says `?` explains the header's words, and the plan's words are on its first page.
  func testTheFooterPointsToTheLegend() {
    var state = session(Size(width: 100, height: 30))
    let footer = String(render(state).text.split(separator: "\n").last ?? "")
    XCTAssertTrue(footer.hasPrefix("└ q quit · ? help, legend · / filter"), footer)
    state.type("?")
    let help = render(state).text
    for entry in PlanHeaderWords.words where entry.kept {
      XCTAssertTrue(help.contains(entry.word + ":"), "\(entry.word) is not explained:\n\(help)")
    }
  }
}
