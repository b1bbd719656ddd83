import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// Issue 17: what a new user reads on the screen — the legend, the status-mark heading, overlays
/// without stray junctions, a detail that ends on a full page, headers and footers that keep what
/// matters at any width, provider columns that never cut a status or a rule id — and exporting.
final class FirstMinuteTests: XCTestCase {
  private func headerLine(_ grid: Grid) -> String { String(grid.text.split(separator: "\n")[0]) }
  private func footerLine(_ grid: Grid) -> String { String(grid.text.split(separator: "\n").last ?? "") }

  func testTheHelpExplainsEveryGlyphAndTheProviderInitials() {
    var state = Fixtures.state()
    state.type("?")
    let first = render(state).text
    for _ in 0..<80 { state.apply(.key(.down)) }
    let text = first + render(state).text  // the first page and the last
    for entry in [
      "▣ ◆ ◎ ◇", "◔ ◕", "§ @ ↺ ⚑", "● · ⊘ ▲", "✗ ✗3", "each counted once", "blocked",
      "dropped (mapping returned nothing)",
    ] {
      XCTAssertTrue(text.contains(entry), "help lacks \(entry):\n\(text)")
    }
    XCTAssertTrue(
      text.contains("FPAB        status columns: F firebase · P piano · A amplitude · B braze"), text)
    XCTAssertTrue(text.contains("export the selected record"), text)
  }

  func testTheHelpScrollsWhenTheTerminalIsShort() {
    var state = Fixtures.state(size: Size(width: 100, height: 24))
    state.type("?")
    XCTAssertTrue(render(state).text.contains("status columns"), "the provider letters come first")
    XCTAssertFalse(render(state).text.contains("each counted once"), "the marks are below the fold")
    for _ in 0..<80 { state.apply(.key(.down)) }
    let text = render(state).text
    XCTAssertTrue(text.contains("Filter"), text)
    guard case .help(let bottom) = state.overlay else { return XCTFail("the help closed") }
    XCTAssertGreaterThan(bottom, 0)
    XCTAssertTrue(text.contains("ctrl-U clears the input"), "the last line is on screen:\n\(text)")
    state.apply(.key(.down))
    XCTAssertEqual(state.overlay, .help(scroll: bottom), "a full last page, no further")
    state.type("x")
    XCTAssertEqual(state.overlay, Overlay.none, "any other key closes it")
  }

  func testTheStatusMarksHaveAHeadingOfProviderInitialsAlignedWithTheirColumns() {
    var state = Fixtures.state()
    state.type("...")
    let grid = render(state)
    let lines = grid.text.split(separator: "\n").map(String.init)
    XCTAssertTrue(lines[1].contains("FPAB│"), lines[1])
    // The playPodcast row (firebase, amplitude, piano, braze outputs) under F P A B: ● · ● ●.
    XCTAssertTrue(lines[5].contains("playPodcast") && lines[5].contains("●·●●│"), lines[5])
    // A screen with firebase and piano only: a blank where amplitude and braze have no output.
    XCTAssertTrue(lines[4].contains("podcasts") && lines[4].contains("●·  │"), lines[4])
  }

  func testOverlaysLeaveNoJunctionOfTheLayoutBeneathOnTheBorder() {
    for keys in ["?", "...\r"] {
      var state = Fixtures.state()
      for character in keys {
        state.apply(.key(character == "\r" ? .enter : .character(character)))
      }
      let grid = render(state)
      let width = grid.size.width
      for row in 1..<(grid.size.height - 1) {
        XCTAssertEqual(grid[0, row].glyph, "│", "\(keys) left border row \(row)")
        XCTAssertEqual(grid[width - 1, row].glyph, "│", "\(keys) right border row \(row)")
      }
      for column in 0..<width {
        for row in [0, grid.size.height - 1] {
          XCTAssertFalse("┬┴┼├┤".contains(grid[column, row].glyph), "\(keys) junction at \(column),\(row)")
        }
      }
    }
  }

  func testGInTheDetailShowsTheEndOnAFullPage() throws {
    var state = Fixtures.state(size: Size(width: 100, height: 24))
    state.type("...")
    state.apply(.key(.enter))
    guard case .detail(let opened) = state.overlay else { return XCTFail("no detail") }
    XCTAssertGreaterThan(opened.lines.count, 22, "a record longer than the box")
    state.type("G")
    guard case .detail(let detail) = state.overlay else { return XCTFail("no detail") }
    let lines = render(state).text.split(separator: "\n").map(String.init)
    let box = lines[2..<(lines.count - 2)]
    XCTAssertFalse(
      box.contains { $0.trimmingCharacters(in: CharacterSet(charactersIn: "│ ")).isEmpty },
      "no blank row:\n\(lines.joined(separator: "\n"))")
    XCTAssertTrue(box.last?.contains("}") ?? false, "the last line of the record is on the last row")
    XCTAssertGreaterThan(detail.scroll, 0)
    // Scrolling down past the end does not move it.
    state.type("j")
    guard case .detail(let after) = state.overlay else { return XCTFail("no detail") }
    XCTAssertEqual(after.scroll, detail.scroll)
  }

  func testAt100x30TheHeaderKeepsTheModeCountAndErrorsAndTheFooterItsFirstKeys() {
    let store = Fixtures.store()
    store.plan.set(
      summary: "plan Podcasts with a rather long title v3: 134/172 covered, 7 errors, 2 warnings")
    var state = UISession(
      source: InspectorTimelineSource(
        timeline: store.timeline,
        sourceLabel: "podcast app simulator · 4 deliberate tagging bugs · seed 1795519341", plan: store.plan),
      mode: .live, size: Size(width: 100, height: 30), now: 1000)
    state.apply(.tick(now: 1001))
    let grid = render(state)
    let header = headerLine(grid)
    XCTAssertTrue(header.contains("LIVE ●"), header)
    XCTAssertTrue(header.contains("12 events"), header)
    XCTAssertTrue(header.contains("7 errors"), header)
    XCTAssertTrue(header.contains("2 warnings"), header)
    XCTAssertEqual(DisplayWidth.of(header), 100)
    assertGolden(grid.text, "live-plan-100x30")
    let footer = footerLine(grid)
    XCTAssertTrue(footer.hasPrefix("└ q quit · ? help, legend · / filter"), footer)
    XCTAssertFalse(footer.contains("…"), "keys give way whole, none is cut: \(footer)")
    // Wide enough, everything is there.
    state.apply(.resize(Size(width: 220, height: 30)))
    let wide = headerLine(render(state))
    XCTAssertTrue(wide.contains("podcast app simulator · 4 deliberate tagging bugs · seed 1795519341"), wide)
    XCTAssertTrue(wide.contains("plan Podcasts with a rather long title v3: 134/172 covered"), wide)
  }

  func testInAReplayAtAnyWidthThePositionStays() {
    var state = Fixtures.state()
    state.type("....")
    for width in [60, 70, 80, 100, 140] {
      state.apply(.resize(Size(width: width, height: 24)))
      let header = headerLine(render(state))
      XCTAssertTrue(header.contains("REPLAY"), "\(width): \(header)")
      XCTAssertTrue(header.contains("record 5/12"), "\(width): \(header)")
    }
  }

  func testAt160ColumnsNoStatusOrRuleIdIsCut() {
    var records = Fixtures.podcastRecords()
    records[7].outputs[0].violations = [
      RecordViolation(
        rule: "plan.unexpected-provider-call", message: "favoritePodcast must not reach firebase",
        consequence: "error", callIndex: 0)
    ]
    records[7].outputs.append(ProviderOutput(provider: "segment", status: .blocked, reason: "disabled"))
    records[7].outputs.append(ProviderOutput(provider: "mixpanel", status: .blocked, reason: "consent"))
    var state = Fixtures.state(Fixtures.store(records), size: Size(width: 160, height: 45))
    state.type(".......")
    XCTAssertEqual(state.selected?.record.name, "favoritePodcast")
    let grid = render(state)
    let text = grid.text
    let providers = state.layout.content(.providers)
    for row in providers.y..<(providers.y + providers.height) {
      var line = ""
      for column in providers.x..<(providers.x + providers.width) where grid[column, row].width != 0 {
        line.append(grid[column, row].glyph)
      }
      XCTAssertFalse(line.contains("…"), "cut in the Providers pane: \(line)")
    }
    XCTAssertTrue(text.contains("⊘ blocked"), text)
    XCTAssertTrue(text.contains("(consent)"), text)
    XCTAssertTrue(text.contains("(disabled)"), text)
    XCTAssertTrue(text.contains("│ ✗ plan.  "), text)
    XCTAssertTrue(text.contains("│   unexpected-  "), text)
    XCTAssertTrue(text.contains("│   provider-call  "), text)
    assertGolden(text, "providers-uncut-160x45")
    // The Events pane is sized from its rows: the provider columns get the rest.
    XCTAssertLessThan(state.layout.area(.events).width, 64, "at 160 columns the Events pane needs ~55")
  }

  func testWrapBreaksBetweenWordsOfNamesAndRuleIds() {
    XCTAssertEqual(
      wrapped("remove_podcast_from_favorites", 12), ["remove_", "podcast_", "from_", "favorites"])
    XCTAssertEqual(wrapped("plan.unexpected-provider", 16), ["plan.unexpected-", "provider"])
    XCTAssertEqual(wrapped("⊘ blocked (consent)", 12), ["⊘ blocked", "(consent)"])
    XCTAssertEqual(wrapped("abcdefghijkl", 5), ["abcde", "fghij", "kl"], "no break point: cut")
    XCTAssertEqual(wrapped("abcde fgh", 5), ["abcde", "fgh"], "the space of a break is not carried over")
  }

  private func wrapped(_ text: String, _ width: Int) -> [String] {
    wrap(Sanitizer.clean(text), width: width).map(\.text)
  }

  func testExportWritesTheSelectedRecordOrTheFilteredOnesToARecordingReplayReads() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("export-\(UUID())")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let store = Fixtures.store()
    var state = Fixtures.state(store)
    state.type("...")
    state.type("e")
    guard case .export(let prompt) = state.overlay else { return XCTFail("no export prompt") }
    XCTAssertEqual(prompt.scope, .record(3))
    XCTAssertTrue(prompt.path.hasPrefix("tagscope-export-record-4-"), prompt.path)
    XCTAssertTrue(render(state).text.contains("export 1 record to tagscope-export-record-4-"))
    let one = directory.appendingPathComponent("one.jsonl").path
    func retype(_ path: String) {
      for _ in 0..<200 { state.apply(.key(.backspace)) }
      state.type(path)
      state.apply(.key(.enter))
    }
    retype(one)
    XCTAssertEqual(state.overlay, Overlay.none)
    XCTAssertEqual(state.notice?.text, "exported 1 record to \(one) (tagscope replay / validate read it)")
    let single = try Timeline.open(path: one)
    single.waitUntilIndexed()
    XCTAssertEqual(single.count, 1)
    XCTAssertEqual(try single.record(at: 0), try store.timeline.record(at: 3))
    XCTAssertEqual(single.header.app, "Podcasts")

    // A filter's matches, byte for byte as recorded.
    state.type("/")
    state.type("kind:screen")
    state.apply(.key(.enter))
    XCTAssertEqual(state.visibleCount, 3)
    state.type("E")
    let screens = directory.appendingPathComponent("screens.jsonl").path
    retype(screens)
    let filtered = try Timeline.open(path: screens)
    filtered.waitUntilIndexed()
    XCTAssertEqual(filtered.count, 3)
    for position in 0..<3 {
      XCTAssertEqual(
        try filtered.line(at: position), try store.timeline.line(at: state.state.matches![position]))
    }

    // An existing file is never overwritten: the export fails and says why.
    state.type("E")
    retype(one)
    XCTAssertTrue(state.notice?.text.hasPrefix("export failed:") ?? false, state.notice?.text ?? "")
    let untouched = try Timeline.open(path: one)
    untouched.waitUntilIndexed()
    XCTAssertEqual(untouched.count, 1)
  }
}
