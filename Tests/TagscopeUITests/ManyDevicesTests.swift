import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// Issue 12: three devices interleaved — each Events row shows its device's label, Screens and
/// Session show the selected record's own device as of that record, and the Sources view lists
/// them and filters to one.
final class ManyDevicesTests: XCTestCase {
  static let devices = ["Podcasts@iPhone 15", "Podcasts@Pixel 8", "segment@127.0.0.1"]

  /// 12 records, device `i % 3`; device d's screens are `d<d>-home` then `d<d>-player`.
  static func store() -> FixtureStore {
    var records: [Record] = []
    for index in 0..<12 {
      let device = index % 3
      let screen = index < 6 ? "d\(device)-home" : "d\(device)-player"
      var record = Fixtures.record(
        index / 3 + 1, Double(index), index % 6 < 3 ? .screen : .userAction,
        index % 6 < 3 ? screen : "tap\(device)", [:],
        RecordContext(
          screen: screen, history: index < 6 ? [screen] : ["d\(device)-home", screen],
          session: RecordSession(id: "s\(device)", state: "authenticated", user: "user-\(device)")),
        [Fixtures.firebase("e", [:])])
      record.source = devices[device]
      records.append(record)
    }
    return Fixtures.store(records)
  }

  func testTheScreensPaneFollowsTheSelectedRecordsDevice() {
    var state = Fixtures.state(Self.store())
    for index in 0..<12 {
      let device = index % 3
      XCTAssertEqual(state.selected?.state.source, Self.devices[device], "record \(index)")
      let grid = render(state)
      let screens = paneText(grid, state.layout.content(.screens))
      let current = index < 6 ? "d\(device)-home" : "d\(device)-player"
      XCTAssertTrue(
        screens.hasPrefix("▶ \(current)"), "record \(index) shows its device's screen:\n\(screens)")
      for other in 0..<3 where other != device {
        XCTAssertFalse(screens.contains("d\(other)-"), "record \(index) shows no other device's screens")
      }
      let session = paneText(grid, state.layout.content(.session))
      XCTAssertTrue(session.contains("user user-\(device)"), "record \(index): its device's session")
      state.type(".")
    }
  }

  /// An SDK device's record (`listen` fills its context from the device's calls): the Screens pane
  /// shows the device's screen, the Session pane an anonymous visitor, not a user.
  func testAnSDKDevicesAnonymousVisitorIsNotShownAsAUser() {
    var record = Fixtures.record(
      1, 0, .userAction, "Add To Cart", [:],
      RecordContext(
        screen: "Bravo Cart", history: ["Bravo Cart"],
        session: RecordSession(id: "", state: "unauthenticated", extra: ["anonymousId": "a7c3e2f0"])),
      [Fixtures.firebase("e", [:])])
    record.source = "Shop@iPhone15,2 · 4F2A"
    let state = Fixtures.state(Fixtures.store([record]))
    let grid = render(state)
    XCTAssertTrue(paneText(grid, state.layout.content(.screens)).hasPrefix("▶ Bravo Cart"))
    let session = paneText(grid, state.layout.content(.session))
    XCTAssertTrue(session.hasPrefix("unauthenticated · anonymous a7c3e2f0"), session)
    XCTAssertFalse(session.contains("user"), session)
    XCTAssertFalse(session.contains("session"), "no session id line without an id:\n\(session)")
    XCTAssertFalse(session.contains("inferred"), "nothing marked inferred when the record says nothing")
  }

  /// What `listen` inferred for an SDK's record (`context.inferred`: the screens folded from its
  /// screen and page calls, the session from the SDK's own id, an anonymous visitor) is marked
  /// so in the Screens and Session panes.
  func testWhatListenInferredIsMarkedInThePanes() {
    var record = Fixtures.record(
      1, 0, .userAction, "Add To Cart", [:],
      RecordContext(
        screen: "Bravo Cart", history: ["Alpha Home", "Bravo Cart"],
        session: RecordSession(
          id: "1732528800000", state: "unauthenticated", extra: ["anonymousId": "a7c3e2f0"]),
        extra: ["inferred": ["screen", "history", "session", "anonymous"]]),
      [Fixtures.firebase("e", [:])])
    record.source = "amplitude@Web · a7c3"
    let state = Fixtures.state(Fixtures.store([record]))
    let grid = render(state)
    let screens = paneText(grid, state.layout.content(.screens))
    XCTAssertTrue(screens.hasPrefix("▶ Bravo Cart\n(inferred from calls)\nAlpha Home"), screens)
    let session = paneText(grid, state.layout.content(.session))
    XCTAssertTrue(
      session.hasPrefix("unauthenticated · anonymous a7c3e2f0 · inferred: no user id"), session)
    XCTAssertTrue(session.contains("session 1732528800000 · inferred from the SDK's id"), session)
    assertGolden(grid.text, "sdk-inferred-140x40")
  }

  /// The text in `rect`, rows joined by newlines, trailing spaces trimmed.
  private func paneText(_ grid: Grid, _ rect: Rect) -> String {
    var rows: [String] = []
    for row in rect.y..<(rect.y + rect.height) {
      var line = ""
      for column in rect.x..<(rect.x + rect.width) where grid[column, row].width != 0 {
        line.append(grid[column, row].glyph)
      }
      rows.append(line.trimmingCharacters(in: .whitespaces))
    }
    return rows.joined(separator: "\n")
  }

  func testRowsCarryAStableLabelAndThePanesNameTheDevice() {
    var state = Fixtures.state(Self.store())
    state.type("....")  // record 4: device 1
    let text = render(state).text
    let lines = text.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[2].contains(" A ▣ d0-home"), lines[2])
    XCTAssertTrue(lines[3].contains(" B ▣ d1-home"), lines[3])
    XCTAssertTrue(lines[4].contains(" C ▣ d2-home"), lines[4])
    XCTAssertTrue(lines[5].contains(" A ◆ tap0"), lines[5])
    XCTAssertTrue(text.contains("│ Screens · B Podcasts@Pixel"), text)
    XCTAssertTrue(text.contains("│ Session · B Podcasts@Pixel 8"), text)
    XCTAssertEqual(SourceLabels.label(0), "A")
    XCTAssertEqual(SourceLabels.label(25), "Z")
    XCTAssertEqual(SourceLabels.label(26), "AA")
    XCTAssertEqual(SourceLabels.label(27), "AB")
    assertGolden(text, "three-devices-140x40")
  }

  func testTheSourcesViewListsEveryDeviceAndFiltersToOne() {
    var state = Fixtures.state(Self.store())
    state.type("S")
    guard case .sources(let view) = state.overlay else { return XCTFail("no Sources view") }
    XCTAssertEqual(view.rows.map(\.statistics.name), Self.devices)
    XCTAssertEqual(view.rows.map(\.statistics.records), [4, 4, 4])
    let text = render(state).text
    XCTAssertTrue(text.contains("Sources · 3"), text)
    XCTAssertTrue(text.contains("all sources"), text)
    XCTAssertTrue(text.contains("Podcasts@Pixel 8"), text)
    assertGolden(text, "sources-view-140x40")
    state.type("jj")
    state.apply(.key(.enter))
    XCTAssertEqual(state.filterText, "source:\"Podcasts@Pixel 8\"")
    XCTAssertEqual(state.matches, [1, 4, 7, 10])
    state.type("S")
    guard case .sources(let again) = state.overlay else { return XCTFail("no Sources view") }
    XCTAssertEqual(again.cursor, 2, "the cursor starts on the device shown")
    state.type("g")
    state.apply(.key(.enter))
    XCTAssertNil(state.filter, "the first row shows all sources again")
  }

  func testEscapeClosesTheSourcesViewWithoutFiltering() {
    var state = Fixtures.state(Self.store())
    state.type("S")
    guard case .sources = state.overlay else { return XCTFail("no Sources view") }
    state.type("j")
    let (closed, effects) = update(state.state, .key(.escape))
    XCTAssertEqual(closed.overlay, Overlay.none, "esc goes back, as the footer says")
    XCTAssertNil(closed.filter, "and applies no filter")
    XCTAssertFalse(effects.contains { if case .filter = $0 { true } else { false } })
  }

  func testConnectionsShowInTheSourcesView() {
    let store = Self.store()
    let connected = Date(timeIntervalSince1970: Fixtures.start + 30)
    let connections: [SourceConnection] = [
      SourceConnection(
        name: Self.devices[0], app: "Podcasts", device: "iPhone 15", connected: true, since: connected,
        reconnections: 2,
        lastGap: Date(timeIntervalSince1970: Fixtures.start + 18)...connected),
      SourceConnection(
        name: Self.devices[1], app: "Podcasts", device: "Pixel 8", connected: false,
        since: Date(timeIntervalSince1970: Fixtures.start + 40)),
    ]
    let source = InspectorTimelineSource(
      timeline: store.timeline, sourceLabel: "listening", connections: { connections })
    var state = UISession(source: source, mode: .live, size: Size(width: 160, height: 30), now: 1000)
    state.type("S")
    let text = render(state).text
    XCTAssertTrue(
      text.contains("connected · Podcasts on iPhone 15 · 2 gaps, last 12 s at 10:00:18.000"), text)
    XCTAssertTrue(text.contains("disconnected since 10:00:40.000 · Podcasts on Pixel 8"), text)
  }
}
