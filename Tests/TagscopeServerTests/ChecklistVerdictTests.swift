import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import XCTest

/// The debugger's checklist and header for an item broken by some of its records: failing, with
/// how many of how many broke it, like every report.
final class ChecklistVerdictTests: XCTestCase {
  func testAnItemBrokenBySomeRecordsIsFailingInTheChecklistAndHeader() throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: P
        actions:
          removePodcastFromFavorite:
            providers:
              firebase: {name: remove_podcast_from_favorite}
        """, file: "p.yaml")
    let checker = PlanChecker(plan: plan)
    for seq in 1...5 {
      let name = seq <= 3 ? "remove_podcast" : "remove_podcast_from_favorite"
      let record = Record(
        seq: UInt64(seq), time: Date(timeIntervalSince1970: 1_800_000_000), kind: .userAction,
        name: "removePodcastFromFavorite",
        outputs: [
          ProviderOutput(
            provider: "firebase", status: .sent, calls: [CallDescription(method: "logEvent", name: name)])
        ])
      checker.check(record, at: seq - 1)
    }
    let lines = checker.checklistLines().map(\.text)
    XCTAssertEqual(lines.first, "1/2 passed, 1 failing · enter lists the records of an item")
    XCTAssertEqual(
      lines.dropFirst().first,
      "✗ failing · 3 of 5 broke it (wrong-name) · action removePodcastFromFavorite: firebase · plan line 5")
    XCTAssertEqual(lines.last, "✓ passed · action removePodcastFromFavorite · 5× · plan line 3")
    XCTAssertEqual(checker.monitor.headerText, "plan P: 1 passed, 1 failing, 3 errors")
  }
}
