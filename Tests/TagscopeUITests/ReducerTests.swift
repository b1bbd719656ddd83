import AnalyticsHub
import TagscopeTimeline
import TagscopeUI
import XCTest

final class ReducerTests: XCTestCase {
  func testLiveFollowsTheTailUntilMovingUpAndGResumes() {
    let store = Fixtures.store(Array(Fixtures.podcastRecords().prefix(5)))
    var state = Fixtures.state(store, mode: .live)
    XCTAssertEqual(state.modeWord, "LIVE")
    XCTAssertEqual(state.selectedIndex, 4)
    store.append(Fixtures.podcastRecords()[5])
    state.apply(.recordsArrived(count: store.count))
    XCTAssertEqual(state.selectedIndex, 5, "following selects the newest record")
    state.apply(.key(.up))
    XCTAssertEqual(state.modeWord, "PAUSED")
    XCTAssertEqual(state.selectedIndex, 4)
    store.append(Fixtures.podcastRecords()[6])
    state.apply(.recordsArrived(count: store.count))
    XCTAssertEqual(state.selectedIndex, 4, "paused: the selection stays")
    XCTAssertEqual(state.known, 7)
    state.apply(.key(.character("G")))
    XCTAssertEqual(state.modeWord, "LIVE")
    XCTAssertEqual(state.selectedIndex, 6)
  }

  /// An idle live debugger asks for its rate again when the rate can change (each second), not
  /// after every result: each result moved the clock on by microseconds, the request differed, and
  /// the effects ran in a loop at 100% CPU once records were in.
  func testAnIdleLiveDebuggerAsksForItsRateOncePerSecond() {
    let store = Fixtures.store(Array(Fixtures.podcastRecords().prefix(5)))
    var state = Fixtures.state(store, mode: .live).state
    let runner = EffectRunner(source: store.source)
    _ = state.apply(.tick(now: 2000))
    let request = state.activityRequest
    XCTAssertNotNil(request)
    for message in runner.run(.loadActivity(request!)) { _ = state.apply(message) }
    for later in [2000.001, 2000.2, 2000.9] {
      let effects = state.apply(.tick(now: later))
      XCTAssertFalse(effects.contains { if case .loadActivity = $0 { true } else { false } }, "at \(later)")
    }
    let effects = state.apply(.tick(now: 2001.05))
    XCTAssertTrue(effects.contains { if case .loadActivity = $0 { true } else { false } }, "a second later")
  }

  func testSpacePausesAndResumesLive() {
    var state = Fixtures.state(mode: .live)
    state.apply(.key(.character(" ")))
    XCTAssertFalse(state.following)
    state.apply(.key(.character(" ")))
    XCTAssertTrue(state.following)
    XCTAssertEqual(state.selectedIndex, 11)
  }

  func testReplayStartsAtTheFirstRecordAndSteps() {
    var state = Fixtures.state()
    XCTAssertEqual(state.modeWord, "REPLAY")
    XCTAssertEqual(state.selectedIndex, 0)
    state.type(".....")
    XCTAssertEqual(state.selectedIndex, 5)
    state.type(",,")
    XCTAssertEqual(state.selectedIndex, 3)
    state.apply(.key(.character("G")))
    XCTAssertEqual(state.selectedIndex, 11)
    state.apply(.key(.character(".")))
    XCTAssertEqual(state.selectedIndex, 11, "stepping past the end stays on the last record")
    state.apply(.key(.character("g")))
    XCTAssertEqual(state.selectedIndex, 0)
  }

  func testStateAsOfTheSelectedRecordShowsThePast() {
    var state = Fixtures.state()
    state.type("......")  // record 7: the consent change
    XCTAssertEqual(state.selected?.state.consent.map(\.scope), ["provider:braze"])
    XCTAssertEqual(state.selected?.state.consent.map(\.granted), [false])
    state.type(",")
    XCTAssertEqual(state.selected?.state.consent.count, 0)
    XCTAssertEqual(state.selected?.state.history, ["podcasts", "podcastPlayer"])
  }

  func testPlaybackFollowsRecordedTimeAndSpeed() {
    var state = Fixtures.state()
    state.apply(.tick(now: 2000))
    state.apply(.key(.character(" ")))
    XCTAssertTrue(state.playing)
    state.apply(.tick(now: 2000.5))
    XCTAssertEqual(state.selectedIndex, 1, "0.4 s gap played after 0.5 s")
    state.apply(.tick(now: 2001.1))
    XCTAssertEqual(state.selectedIndex, 1, "1.2 s not reached after 1.1 s")
    state.apply(.tick(now: 2001.3))
    XCTAssertEqual(state.selectedIndex, 2, "1.2 s reached after 1.3 s")
    state.apply(.key(.character("+")))
    state.apply(.key(.character("+")))
    XCTAssertEqual(state.speed, 4)
    state.apply(.tick(now: 2001.9))  // 0.6 s at 4× = 2.4 s (+0.1 left over): 1.2 s → 3.5 s
    XCTAssertEqual(state.selectedIndex, 3)
    state.apply(.key(.character(" ")))
    state.apply(.tick(now: 2100))
    XCTAssertEqual(state.selectedIndex, 3, "paused: no progress")
    state.apply(.key(.character("-")))
    XCTAssertEqual(state.speed, 2)
  }

  func testPlaybackStopsAtTheEnd() {
    var state = Fixtures.state()
    state.apply(.tick(now: 0))
    state.apply(.key(.character(" ")))
    state.apply(.tick(now: 100))
    XCTAssertEqual(state.selectedIndex, 11)
    XCTAssertFalse(state.playing)
  }

  func testArrowsSeekTenSecondsOfRecordedTime() {
    var state = Fixtures.state()
    state.apply(.key(.right))
    XCTAssertEqual(state.selectedIndex, 8, "the first record at or after 10 s (12.25 s)")
    state.apply(.key(.left))
    XCTAssertEqual(state.selectedIndex, 2, "the last record at or before 2.25 s (1.2 s)")
  }

  func testSeekingFollowsFileOrderWhereSeqAndTimeGoBackwards() {
    // Two runs spliced together: seq and time go backwards at positions 3 and 5.
    let offsets: [(Int, Double)] = [(150, 0), (151, 5), (152, 30), (140, 2), (186, 40), (120, 1), (190, 50)]
    let records = offsets.map { Fixtures.record($0.0, $0.1, .event, "e\($0.0)") }
    var state = Fixtures.state(Fixtures.store(records))
    state.type("....")
    XCTAssertEqual(state.selectedIndex, 4, "seq 186")
    state.apply(.key(.left))
    XCTAssertEqual(
      state.selectedIndex, 3, "the nearest earlier record at or before 30 s (2 s), never forward")
    state.apply(.key(.left))
    XCTAssertEqual(state.selectedIndex, 0, "nothing earlier is at or before -8 s: the first record")
    state.apply(.key(.left))
    XCTAssertEqual(state.selectedIndex, 0, "nothing before the first record")
    state.apply(.key(.right))
    XCTAssertEqual(state.selectedIndex, 2, "the nearest later record at or after 10 s")
    state.apply(.key(.right))
    XCTAssertEqual(state.selectedIndex, 4, "the nearest later record at or after 40 s, not the one at 50 s")
    state.type(",")
    XCTAssertEqual(state.selectedIndex, 3, "stepping follows file order too")
    state.apply(.key(.right))
    XCTAssertEqual(state.selectedIndex, 4)
    state.apply(.key(.character("G")))
    state.apply(.key(.right))
    XCTAssertEqual(state.selectedIndex, 6, "nothing after the last record")
  }

  func testSeekingBeyondTheScannedRecordsStillMovesInItsDirection() {
    // Times descending over more records than a seek reads one by one.
    let count = EffectRunner.seekScan * 2 + 10
    let records = (0..<count).map { Fixtures.record($0 + 1, Double(count - $0), .event, "e") }
    var state = Fixtures.state(Fixtures.store(records))
    state.apply(.key(.right))
    let forward = state.selectedIndex ?? 0
    XCTAssertGreaterThan(forward, EffectRunner.seekScan, "no later record is 10 s later: still forward")
    state.apply(.key(.left))
    XCTAssertLessThan(state.selectedIndex ?? count, forward, "no earlier record is 10 s earlier: still back")
  }

  func testFilterAppliesOnEnterAndShowsErrorsAsYouType() {
    var state = Fixtures.state()
    state.apply(.key(.character("/")))
    state.type("kind:scr")
    XCTAssertEqual(state.overlay, .filter("kind:scr"))
    state.apply(.key(.enter))
    XCTAssertEqual(state.overlay, .filter("kind:scr"), "an invalid filter is not applied")
    XCTAssertNotNil(state.notice)
    state.type("een")
    state.apply(.key(.enter))
    XCTAssertEqual(state.overlay, .none)
    XCTAssertEqual(state.matches, [2, 5, 11])
    XCTAssertEqual(state.visibleCount, 3)
    state.apply(.key(.escape))
    XCTAssertNil(state.matches, "esc clears the filter")
  }

  func testFilterByProviderStatusAndViolations() {
    var state = Fixtures.state()
    state.applyFilterForTest("provider:braze status:blocked")
    XCTAssertEqual(state.matches, [7, 8, 10])
    state.applyFilterForTest("has:violations")
    XCTAssertEqual(state.matches, [10])
    state.applyFilterForTest("status:failed")
    XCTAssertEqual(state.matches, [8])
    state.applyFilterForTest("play")
    XCTAssertEqual(state.matches, [3, 5, 8], "playPodcast, podcastPlayer, playerDidFail")
  }

  func testFilterParseErrorsNameTheTerm() {
    guard case .failure(let error) = Filter.parse("colour:red") else { return XCTFail("accepted") }
    XCTAssertTrue(error.message.contains("colour"))
    guard case .failure(let status) = Filter.parse("status:lost") else { return XCTFail("accepted") }
    XCTAssertTrue(status.message.contains("lost"))
    guard case .failure = Filter.parse("has:cake") else { return XCTFail("accepted") }
    guard case .success(let filter) = Filter.parse("kind:userAction name:Play name~pod") else {
      return XCTFail()
    }
    XCTAssertEqual(filter.timeline.kinds, [.userAction])
    XCTAssertEqual(
      filter.timeline.names, [.exact("Play"), .substring("pod")], "name: is exact, name~ a part")
  }

  func testNewRecordsAreFilteredAsTheyArrive() {
    let records = Fixtures.podcastRecords()
    let store = Fixtures.store(Array(records.prefix(4)))
    var state = Fixtures.state(store, mode: .live)
    state.applyFilterForTest("kind:screen")
    XCTAssertEqual(state.matches, [2])
    store.append(contentsOf: records[4...])
    state.apply(.recordsArrived(count: store.count))
    XCTAssertEqual(state.matches, [2, 5, 11])
    XCTAssertEqual(state.selectedIndex, 11, "following the tail of the filtered list")
  }

  func testFocusTabDigitsAndZoom() {
    var state = Fixtures.state()
    XCTAssertEqual(state.focus, .events)
    state.apply(.key(.tab))
    XCTAssertEqual(state.focus, .screens)
    state.apply(.key(.character("4")))
    XCTAssertEqual(state.focus, .providers)
    state.apply(.key(.backTab))
    XCTAssertEqual(state.focus, .session)
    state.apply(.key(.character("z")))
    XCTAssertTrue(state.zoomed)
    XCTAssertEqual(state.layout.zoomed, .session)
    state.apply(.key(.escape))
    XCTAssertFalse(state.zoomed)
  }

  func testJumpToRecordNumberAndTime() {
    var state = Fixtures.state()
    state.apply(.key(.character(":")))
    state.type("9")
    state.apply(.key(.enter))
    XCTAssertEqual(state.selectedIndex, 8)
    state.apply(.key(.character(":")))
    state.type("0:15")
    state.apply(.key(.enter))
    XCTAssertEqual(state.selectedIndex, 9)
    state.apply(.key(.character(":")))
    state.type("x")
    XCTAssertEqual(state.overlay, .jump(""), "only digits, ':' and '.' are typed")
  }

  func testBracketsJumpBetweenViolations() {
    var state = Fixtures.state(Fixtures.many(200))
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 49)
    state.apply(.key(.character("]")))
    XCTAssertEqual(state.selectedIndex, 99)
    state.apply(.key(.character("[")))
    XCTAssertEqual(state.selectedIndex, 49)
    state.apply(.key(.character("[")))
    XCTAssertEqual(state.selectedIndex, 49)
    XCTAssertNotNil(state.notice)
  }

  func testPagingKeepsTheSelectionOnScreen() {
    var state = Fixtures.state(Fixtures.many(500), size: Size(width: 100, height: 30))
    state.apply(.key(.pageDown))
    state.apply(.key(.pageDown))
    let rows = state.layout.content(.events).height
    XCTAssertEqual(state.cursor, 2 * (rows - 1))
    XCTAssertTrue(state.top <= state.cursor && state.cursor < state.top + rows)
    state.apply(.key(.end))
    XCTAssertEqual(state.cursor, 499)
    XCTAssertEqual(state.top, 500 - rows)
    state.apply(.resize(Size(width: 100, height: 60)))
    let taller = state.layout.content(.events).height
    XCTAssertEqual(state.top, 500 - taller)
  }

  func testDetailOpensScrollsAndCloses() {
    var state = Fixtures.state()
    state.type("...")
    state.apply(.key(.enter))
    guard case .detail(let detail) = state.overlay else { return XCTFail("no detail") }
    XCTAssertEqual(detail.index, 3)
    XCTAssertTrue(detail.lines.contains { $0.text.contains("\"play_podcast_from_podcasts\"") })
    state.apply(.key(.down))
    guard case .detail(let scrolled) = state.overlay else { return XCTFail("closed") }
    XCTAssertEqual(scrolled.scroll, 1)
    state.apply(.key(.escape))
    XCTAssertEqual(state.overlay, .none)
  }

  func testQuitWorksEverywhereButTextInput() {
    var state = Fixtures.state(size: Size(width: 20, height: 5))
    XCTAssertTrue(state.layout.isTooSmall)
    state.apply(.key(.character("q")))
    XCTAssertTrue(state.shouldQuit)
    var filtering = Fixtures.state()
    filtering.type("/q")
    XCTAssertFalse(filtering.shouldQuit)
    XCTAssertEqual(filtering.overlay, .filter("q"))
    var help = Fixtures.state()
    help.type("?")
    XCTAssertEqual(help.overlay, .help(scroll: 0))
    help.type("x")
    XCTAssertEqual(help.overlay, .none)
  }

  func testMouseClickSelectsAndWheelScrolls() {
    var state = Fixtures.state(Fixtures.many(100))
    let events = state.layout.content(.events)
    state.apply(.mouse(MouseEvent(action: .press, column: events.x + 3, row: events.y + 4)))
    XCTAssertEqual(state.selectedIndex, 4)
    state.apply(.mouse(MouseEvent(action: .wheelDown, column: events.x + 3, row: events.y + 4)))
    XCTAssertEqual(state.selectedIndex, 7)
    let providers = state.layout.content(.providers)
    state.apply(.mouse(MouseEvent(action: .press, column: providers.x + 2, row: providers.y + 2)))
    XCTAssertEqual(state.focus, .providers)
  }

  func testUpdateIsPureAndAsksForWhatTheNewSelectionNeeds() {
    let session = Fixtures.state()
    let (next, effects) = update(session.state, .key(.character(".")))
    XCTAssertEqual(session.selectedIndex, 0)
    XCTAssertEqual(next.selectedIndex, 1)
    XCTAssertTrue(effects.contains(.loadSelection(1)), "\(effects)")
    XCTAssertEqual(next.selected, nil, "the record is not read by update: it comes back as a message")
    let (again, _) = update(session.state, .key(.character(".")))
    XCTAssertEqual(render(next).text, render(again).text, "the same state draws the same frame")
  }

  func testEffectsRunOffTheReducerAndComeBackAsMessages() {
    let store = Fixtures.store()
    var state = State(mode: .replay, size: Size(width: 140, height: 40))
    let runner = EffectRunner(source: store.source)
    var effects = state.apply(.info(store.source.info)) + state.apply(.recordsArrived(count: store.count))
    XCTAssertTrue(effects.contains(.loadSelection(0)), "\(effects)")
    XCTAssertTrue(render(state).text.contains("Events"), "renders before anything is loaded")
    var rounds = 0
    while !effects.isEmpty {
      rounds += 1
      effects = effects.flatMap(runner.run).flatMap { state.apply($0) }
    }
    XCTAssertLessThanOrEqual(rounds, 2)
    XCTAssertEqual(state.selected?.record.name, "sessionStart")
    XCTAssertEqual(state.rows.count, 12, "every visible row loaded")
    XCTAssertEqual(render(state).text, render(Fixtures.state().state).text)
  }
}

extension UISession {
  mutating func applyFilterForTest(_ text: String) {
    apply(.key(.character("/")))
    // Clear whatever the overlay starts with, then type.
    if case .filter(let current) = state.overlay { for _ in current { apply(.key(.backspace)) } }
    type(text)
    apply(.key(.enter))
  }
}

final class PaneScrollTests: XCTestCase {
  func testContextPanesScrollWithinTheirContent() {
    var records = Fixtures.podcastRecords()
    records[11].context.history = (1...40).map { "screen\($0)" }
    var state = Fixtures.state(Fixtures.store(records))
    state.apply(.key(.character("G")))
    state.apply(.key(.character("2")))
    let height = state.layout.content(.screens).height
    state.apply(.key(.character("G")))
    XCTAssertEqual(state.scroll[Pane.screens.rawValue], 40 - height, "G scrolls to the last line")
    state.apply(.key(.character("k")))
    XCTAssertEqual(state.scroll[Pane.screens.rawValue], 40 - height - 1, "k moves up at once")
    state.apply(.key(.character("g")))
    state.apply(.key(.character("k")))
    XCTAssertEqual(state.scroll[Pane.screens.rawValue], 0)
    XCTAssertTrue(render(state.state).text.contains("▶ screen40"))
  }

  func testProviderColumnsScrollSidewaysOnlyWhenTheyDoNotFit() {
    var state = Fixtures.state(size: Size(width: 80, height: 24))
    state.type("...4")  // playPodcast: four providers, two fit
    state.type("llll")
    XCTAssertEqual(state.providerOffset, 2)
    XCTAssertTrue(render(state.state).text.contains("braze"))
    state.type("h")
    XCTAssertEqual(state.providerOffset, 1)
    var wide = Fixtures.state()
    wide.type("...l")
    XCTAssertEqual(wide.providerOffset, 0, "all four fit at 140 columns")
  }

  func testSourceFilterAndSKeyShowOneListenSourceAtATime() {
    var records = Array(Fixtures.podcastRecords().prefix(6))
    for index in records.indices {
      records[index].source = index % 2 == 0 ? "segment@127.0.0.1" : "iPhone@10.0.0.2"
    }
    let store = Fixtures.store(records)
    XCTAssertEqual(store.timeline.sources, ["segment@127.0.0.1", "iPhone@10.0.0.2"])
    guard case .success(let filter) = Filter.parse("source~IPHONE") else { return XCTFail("rejected") }
    XCTAssertEqual(try store.timeline.filter(filter.timeline), [1, 3, 5], "the timeline's filter matches")
    guard case .success(let exact) = Filter.parse("source:IPHONE@10.0.0.2") else {
      return XCTFail("rejected")
    }
    XCTAssertEqual(
      try store.timeline.filter(exact.timeline), [1, 3, 5], "source: is the whole name, any case")
    guard case .success(let part) = Filter.parse("source:IPHONE") else { return XCTFail("rejected") }
    XCTAssertEqual(try store.timeline.filter(part.timeline), [], "source: is exact, not a part")
    var state = Fixtures.state(store)
    state.type("s")
    XCTAssertEqual(state.filterText, "source:segment@127.0.0.1")
    XCTAssertEqual(state.visibleCount, 3)
    state.type("s")
    XCTAssertEqual(state.filterText, "source:iPhone@10.0.0.2")
    state.type("s")
    XCTAssertNil(state.filter, "after the last source, all sources again")
    XCTAssertEqual(state.visibleCount, 6)
  }

  func testCOpensTheCoverageChecklistOnlyWithAPlan() {
    let store = Fixtures.store(Array(Fixtures.podcastRecords().prefix(3)))
    var state = Fixtures.state(store)
    state.type("c")
    XCTAssertEqual(state.overlay, .none, "no plan: nothing to show")
    store.plan.set(
      summary: "plan Podcasts v3: 1/2 covered",
      checklist: [
        "1/2 covered: 1 not yet seen", "· screen favorites · not yet seen · plan line 9",
        "✓ screen podcasts · 3×",
      ])
    state.refresh()  // plan results arrive as a message
    state.type("c")
    guard case .detail(let detail) = state.overlay else { return XCTFail("checklist not shown") }
    XCTAssertEqual(
      detail.lines.map(\.text),
      [
        "1/2 covered: 1 not yet seen", "· screen favorites · not yet seen · plan line 9",
        "✓ screen podcasts · 3×",
      ])
    XCTAssertTrue(
      render(state.state).text.contains("Coverage · plan Podcasts v3: 1/2 covered"), render(state.state).text)
    state.apply(.key(.escape))
    XCTAssertEqual(state.overlay, .none)
  }
}
