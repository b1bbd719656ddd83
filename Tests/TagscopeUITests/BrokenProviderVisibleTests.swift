import AnalyticsHub
import Foundation
import TagscopeRecording
import XCTest

@testable import TagscopeUI

/// The debugger never hides the bug: when the provider columns do not all fit, the one with a
/// violation (here the last registered, fpti) is on screen, in place of the last sound ones.
final class BrokenProviderVisibleTests: XCTestCase {
  private func records() -> [Record] {
    let play: Properties = ["podcast_title": "Swift by Sundell"]
    func sent(_ provider: String, _ name: String, violations: [RecordViolation] = []) -> ProviderOutput {
      ProviderOutput(
        provider: provider, status: .sent,
        calls: [CallDescription(method: "logEvent", name: name, parameters: play)], violations: violations)
    }
    let broken = RecordViolation(
      rule: "fpti.missing-page", message: "fpti call without page name: PayPal drops it",
      consequence: "dropped",
      callIndex: 0)
    return [
      Fixtures.record(
        1, 0, .userAction, "playPodcast", play, Fixtures.context(["podcasts"]),
        [
          sent("firebase", "play_podcast"), sent("amplitude", "Play Podcast"), sent("piano", "play"),
          sent("braze", "podcast_played"), sent("fpti", "play", violations: [broken]),
        ])
    ]
  }

  func testTheBrokenProviderIsShownAtEverySize() {
    for (width, height) in [(80, 24), (100, 30), (160, 45)] {
      let state = Fixtures.state(Fixtures.store(records()), size: Size(width: width, height: height))
      let text = render(state).text
      XCTAssertTrue(text.contains("fpti ✗1"), "\(width)×\(height):\n\(text)")
      assertGolden(text, "broken-provider-\(width)x\(height)")
    }
  }

  func testColumnsGiveWayLeastBrokenFirstInRegistrationOrder() {
    let outputs = records()[0].outputs
    XCTAssertEqual(FrameView.shownOutputs(outputs, fitting: 3, offset: 0), [0, 1, 4])
    XCTAssertEqual(FrameView.shownOutputs(outputs, fitting: 5, offset: 0), [0, 1, 2, 3, 4])
    XCTAssertEqual(FrameView.shownOutputs(outputs, fitting: 2, offset: 2), [2, 4], "scrolled: still there")
    XCTAssertEqual(FrameView.shownOutputs(outputs, fitting: 1, offset: 0), [4])
  }
}
