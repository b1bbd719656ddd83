import Foundation
import TagscopeTimeline
import TagscopeUI
import XCTest

/// The Providers pane's delivery words: each provider call's fate as the live session's delivery
/// ledger knows it, for the selected record, refreshed when the ledger changes.
final class ProvidersDeliveryTests: XCTestCase {
  /// Record #4 (playPodcast): firebase delivered, amplitude queued, braze lost (piano dropped its
  /// tag, so it has no call).
  private func playPodcastCalls(amplitude: String = "queued") -> [CallDelivery] {
    [
      CallDelivery(provider: "firebase", callIndex: 0, state: "delivered", status: 200),
      CallDelivery(
        provider: "amplitude", callIndex: 0, state: amplitude, status: amplitude == "queued" ? nil : 200),
      CallDelivery(provider: "braze", callIndex: 0, state: "lost"),
    ]
  }

  private func storeWithDeliveries() -> FixtureStore {
    let store = Fixtures.store()
    store.delivery.set(calls: playPodcastCalls(), at: 3)
    return store
  }

  func testTheSelectionCarriesItsCallsDeliveries() {
    var state = Fixtures.state(storeWithDeliveries())
    state.type("...")
    XCTAssertEqual(state.selected?.index, 3)
    XCTAssertEqual(state.selected?.deliveries, playPodcastCalls())
    state.type(".")
    XCTAssertEqual(state.selected?.deliveries, [], "a record the ledger follows no call of")
  }

  func testWithoutALedgerTheSelectionHasNoDeliveries() {
    let store = Fixtures.store()
    let source = InspectorTimelineSource(timeline: store.timeline, sourceLabel: "test fixture")
    var state = UISession(source: source, mode: .replay, size: Size(width: 140, height: 40), now: 1000)
    state.type("...")
    XCTAssertEqual(state.selected?.index, 3)
    XCTAssertNil(state.selected?.deliveries)
    XCTAssertNil(state.info.deliveryFingerprint)
  }

  func testALedgerChangeReloadsTheSelectedRecordsDeliveries() {
    let store = storeWithDeliveries()
    var state = Fixtures.state(store)
    state.type("...")
    XCTAssertEqual(state.selected?.index, 3)
    XCTAssertTrue(render(state).text.contains("queued"))
    store.delivery.set(calls: playPodcastCalls(amplitude: "delivered"), at: 3)
    XCTAssertTrue(state.refresh(), "the ledger's fingerprint is a header fact that changed")
    XCTAssertEqual(state.selected?.deliveries, playPodcastCalls(amplitude: "delivered"))
    let text = render(state).text
    XCTAssertFalse(text.contains("queued"), text)
    XCTAssertEqual(text.components(separatedBy: "delivered 200").count - 1, 2, text)
  }

  func testADeliveryFilterRunsAgainWhenTheLedgerChanges() {
    let store = storeWithDeliveries()
    store.delivery.set(calls: [CallDelivery(provider: "firebase", callIndex: 0, state: "queued")], at: 5)
    var state = Fixtures.state(store)
    state.applyFilterForTest("delivery:queued")
    XCTAssertEqual(state.matches, [3, 5])
    store.delivery.set(calls: playPodcastCalls(amplitude: "delivered"), at: 3)
    state.refresh()
    XCTAssertEqual(state.matches, [5], "#4's queued call was delivered")
    store.delivery.set(calls: [CallDelivery(provider: "firebase", callIndex: 0, state: "queued")], at: 7)
    state.refresh()
    XCTAssertEqual(state.matches, [5, 7])
  }

  func testTheProvidersPaneShowsDeliveredQueuedAndLostCalls() {
    var state = Fixtures.state(storeWithDeliveries())
    state.type("...")
    let grid = render(state)
    let text = grid.text
    assertGolden(text, "providers-delivery-140x40")
    XCTAssertEqual(style(of: "delivered 200", in: grid), .success)
    XCTAssertEqual(style(of: "queued", in: grid), .warning)
    XCTAssertEqual(style(of: "lost", in: grid), .error)
  }

  func testWithoutALedgerThePaneIsUnchanged() {
    let store = Fixtures.store()
    let source = InspectorTimelineSource(timeline: store.timeline, sourceLabel: "test fixture")
    var state = UISession(source: source, mode: .replay, size: Size(width: 140, height: 40), now: 1000)
    state.type("...")
    let text = render(state).text
    for word in ["delivered", "queued", "lost", "in flight", "no wire source"] {
      XCTAssertFalse(text.contains(word), word)
    }
    assertGolden(text, "normal-140x40")
  }

  func testEveryStateHasItsWordsAndColour() {
    let expected: [(CallDelivery, String, Style)] = [
      (CallDelivery(provider: "p", callIndex: 0, state: "delivered", status: 200), "delivered 200", .success),
      (CallDelivery(provider: "p", callIndex: 0, state: "delivered"), "delivered", .success),
      (CallDelivery(provider: "p", callIndex: 0, state: "inFlight"), "in flight", .warning),
      (CallDelivery(provider: "p", callIndex: 0, state: "queued"), "queued", .warning),
      (CallDelivery(provider: "p", callIndex: 0, state: "droppedBySDK"), "dropped by SDK", .error),
      (CallDelivery(provider: "p", callIndex: 0, state: "refused", status: 400), "refused 400", .error),
      (CallDelivery(provider: "p", callIndex: 0, state: "lost"), "lost", .error),
      (CallDelivery(provider: "p", callIndex: 0, state: "noWireSource"), "no wire source", .dim),
      (CallDelivery(provider: "p", callIndex: 0, state: "ambiguous"), "ambiguous", .warning),
    ]
    for (delivery, words, style) in expected {
      XCTAssertEqual(delivery.words, words)
      XCTAssertEqual(delivery.style, style, words)
    }
    XCTAssertEqual(
      Set(expected.map(\.0.state)), Set(Filter.deliveryStateWords), "every state the filter knows is worded")
  }

  /// The style of the first cell of `words` on screen.
  private func style(of words: String, in grid: Grid) -> Style? {
    for (row, line) in grid.text.components(separatedBy: "\n").enumerated() {
      guard let range = line.range(of: words) else { continue }
      return grid[line.distance(from: line.startIndex, to: range.lowerBound), row].style
    }
    return nil
  }
}
