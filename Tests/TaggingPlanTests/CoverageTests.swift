import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

final class CoverageTests: XCTestCase {
  func testItemsOfTheSamplePlan() throws {
    let plan = try samplePlan()
    XCTAssertEqual(
      plan.coverageItems.map(\.id),
      [
        "screen podcasts", "screen podcasts: firebase",
        "screen favorites", "screen favorites: firebase",
        "screen podcastPlayer",
        "action playPodcast",
        "action playPodcast on podcasts: firebase", "action playPodcast on favorites: firebase",
        "action playPodcast on podcasts: amplitude", "action playPodcast on favorites: amplitude",
        "action playPodcast on podcasts: piano", "action playPodcast on favorites: piano",
        "event playerDidFail",
        "state autoPlay",
        "timed listening", "timed listening: firebase",
      ])
    XCTAssertEqual(plan.coverageItems[7].location.line, 21)
  }

  func testCountsSeenAndMissing() throws {
    let plan = try samplePlan()
    let records = [
      goodPlay(1, screen: "favorites"), goodPlay(2, screen: "favorites"),
      record(
        3, .screen, "podcasts", screen: "podcasts",
        outputs: [sent("firebase", "screen_view", ["screen_name": "x"])]),
      record(4, .state, "autoPlay", ["value": true]),
    ]
    let coverage = validate(records, plan: plan).1.coverage
    XCTAssertEqual(coverage.planned, 16)
    XCTAssertEqual(coverage.seenCount, 7)
    // The screen_view of podcasts carried another screen_name: seen, but failing.
    XCTAssertEqual(coverage.summary, "6/16 passed, 1 failing, 9 not seen")
    XCTAssertEqual(coverage.shortSummary, "6 passed, 1 failing, 9 not seen")
    let playFavoritesFirebase = try XCTUnwrap(
      coverage.items.firstIndex { $0.id == "action playPodcast on favorites: firebase" })
    XCTAssertEqual(coverage.counts[playFavoritesFirebase], 2)
    XCTAssertEqual(
      coverage.missing.map(\.id),
      [
        "screen favorites", "screen favorites: firebase", "screen podcastPlayer",
        "action playPodcast on podcasts: firebase", "action playPodcast on podcasts: amplitude",
        "action playPodcast on podcasts: piano", "event playerDidFail", "timed listening",
        "timed listening: firebase",
      ])
  }

  func testMergeAddsCounts() throws {
    let plan = try samplePlan()
    var left = validate([goodPlay(1, screen: "favorites")], plan: plan).1.coverage
    let right = validate([goodPlay(2, screen: "podcasts"), goodPlay(3, screen: "favorites")], plan: plan).1
      .coverage
    left.merge(right)
    XCTAssertEqual(left.seenCount, 7)
    XCTAssertEqual(left.counts[plan.coverageItems.firstIndex { $0.id == "action playPodcast" }!], 3)
  }
}

final class PlanMonitorTests: XCTestCase {
  func testMonitorKeepsViolationsByPositionAndTheHeaderText() throws {
    let monitor = PlanMonitor(plan: try samplePlan())
    XCTAssertEqual(monitor.headerText, "plan Podcasts v3: 0 passed, 16 not seen, 0 errors")
    XCTAssertEqual(monitor.check(goodPlay(1), at: 0), [])
    let wrong = monitor.check(goodPlay(2, screen: "downloads"), at: 1)
    XCTAssertEqual(wrong.map(\.rule), [.wrongScreen])
    monitor.check(record(3, .event, "playerDidFail", ["error": "other"]), at: 2)
    XCTAssertEqual(monitor.violations(at: 1), wrong)
    XCTAssertEqual(monitor.violations(at: 0), [])
    XCTAssertEqual(monitor.violations(at: 2).map(\.severity), [.warning])
    XCTAssertEqual(monitor.counts.errors, 1)
    // playPodcast passed once but the wrong screen broke it once: failing, 1 of 2.
    XCTAssertEqual(
      monitor.headerText, "plan Podcasts v3: 3 passed, 2 failing, 11 not seen, 1 error, 1 warning")
    XCTAssertEqual(monitor.coverage.seenCount, 5)
    let states = Dictionary(uniqueKeysWithValues: monitor.coverageStates.map { ($0.item.id, $0.state) })
    XCTAssertEqual(states["action playPodcast"], .failing(rules: [.wrongScreen], broken: 1, records: 2))
    XCTAssertEqual(states["action playPodcast"]?.label, "✗ failing · 1 of 2 broke it (wrong-screen)")
    XCTAssertEqual(states["event playerDidFail"], .failing(rules: [.invalidValue], broken: 1, records: 1))
    XCTAssertEqual(states["event playerDidFail"]?.label, "✗ failing · 1 of 1 broke it (invalid-value)")
    XCTAssertEqual(states["state autoPlay"], .notSeen)
    XCTAssertEqual(monitor.coverageCounts.failing, 2)
  }

  func testMonitorShowsBlockedItems() throws {
    let monitor = PlanMonitor(plan: try samplePlan())
    var play = goodPlay(1, screen: "podcasts")
    play.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    monitor.check(play, at: 0)
    XCTAssertEqual(
      monitor.headerText, "plan Podcasts v3: 3 passed, 1 blocked, 12 not seen, 0 errors")
    let blocked = try XCTUnwrap(
      monitor.coverageStates.first { $0.item.id == "action playPodcast on podcasts: amplitude" })
    XCTAssertEqual(blocked.state.label, "⊘ blocked (consent)")
  }
}

final class CoverageStateTests: XCTestCase {
  private func item(_ id: String, _ coverage: Coverage) throws -> Int {
    try XCTUnwrap(coverage.items.firstIndex { $0.id == id }, id)
  }

  func testEachStateAndWhatDecidesIt() throws {
    let plan = try samplePlan()
    // favorites: firebase breaks twice (two rules), amplitude passes once of two.
    var wrongName = goodPlay(1, screen: "favorites")
    wrongName.outputs[0] = sent("firebase", "play_podcast_from_podcasts", ["podcast_title": "T"])
    var missingParam = goodPlay(2, screen: "favorites")
    missingParam.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": "T"])
    missingParam.outputs[1] = sent("amplitude", "Play", [:], method: "track")
    // podcasts: amplitude only ever blocked (consent, then disabled), firebase blocked then seen.
    var blocked = goodPlay(3, screen: "podcasts")
    blocked.outputs[0] = ProviderOutput(provider: "firebase", status: .blocked, reason: "consent")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    var disabled = goodPlay(4, screen: "podcasts")
    disabled.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "disabled")
    let coverage = validate([wrongName, missingParam, blocked, disabled], plan: plan).1.coverage

    XCTAssertEqual(
      coverage.state(at: try item("action playPodcast on favorites: firebase", coverage)),
      .failing(rules: [.wrongName, .missingParam], broken: 2, records: 2))
    // Broken by one record of two: failing, never passed.
    XCTAssertEqual(
      coverage.state(at: try item("action playPodcast on favorites: amplitude", coverage)),
      .failing(rules: [.wrongName], broken: 1, records: 2))
    XCTAssertEqual(
      coverage.state(at: try item("action playPodcast on podcasts: amplitude", coverage)),
      .blocked(reasons: ["consent", "disabled"]))
    XCTAssertEqual(
      coverage.state(at: try item("action playPodcast on podcasts: firebase", coverage)), .passed)
    XCTAssertEqual(coverage.state(at: try item("event playerDidFail", coverage)), .notSeen)
    XCTAssertEqual(coverage.failures[try item("action playPodcast on favorites: amplitude", coverage)], 1)
    XCTAssertEqual(coverage.states.count, coverage.planned)
    let counts = coverage.stateCounts
    XCTAssertEqual(counts.passed + counts.failing + counts.blocked + counts.notSeen, coverage.planned)
    XCTAssertEqual(counts.failing, 2)
    XCTAssertEqual(counts.blocked, 1)
    XCTAssertEqual(
      coverage.summary, "\(counts.passed)/16 passed, 2 failing, 1 blocked, \(counts.notSeen) not seen")
    XCTAssertEqual(CoverageState.notSeen.label, "· not seen")
    XCTAssertEqual(
      CoverageState.failing(rules: [.wrongName], broken: 3, records: 5).description,
      "failing · 3 of 5 broke it (wrong-name)")
  }

  func testBlockingReasonsAreBoundedAndAbsentReasonsNamed() throws {
    var coverage = Coverage(items: try samplePlan().coverageItems)
    coverage.markBlocked(1, reason: nil)
    for index in 0..<20 { coverage.markBlocked(1, reason: String(repeating: "r\(index)", count: 50)) }
    coverage.markBlocked(99, reason: "out of range")
    coverage.mark(-1)
    guard case .blocked(let reasons) = coverage.state(at: 1) else {
      return XCTFail("\(coverage.state(at: 1))")
    }
    XCTAssertEqual(reasons.count, Coverage.reasonLimit)
    XCTAssertEqual(reasons[0], "no reason given")
    XCTAssertTrue(reasons.allSatisfy { $0.count <= Coverage.reasonLength })
  }

  func testABlockingReasonIsKeptOnceWholeOrCutToItsLengthInCharacters() throws {
    var coverage = Coverage(items: try samplePlan().coverageItems)
    // 60 bytes but 30 characters: kept whole; 45 and 41 characters: the same reason once cut.
    let accented = String(repeating: "é", count: 30)
    for _ in 0..<3 {
      coverage.markBlocked(1, reason: "consent")
      coverage.markBlocked(1, reason: accented)
      coverage.markBlocked(1, reason: String(repeating: "x", count: 45))
      coverage.markBlocked(1, reason: String(repeating: "x", count: 41))
    }
    guard case .blocked(let reasons) = coverage.state(at: 1) else {
      return XCTFail("\(coverage.state(at: 1))")
    }
    XCTAssertEqual(reasons, ["consent", accented, String(repeating: "x", count: Coverage.reasonLength)])
  }

  func testMergeKeepsStatesOfEveryFile() throws {
    let plan = try samplePlan()
    var wrong = goodPlay(1, screen: "favorites")
    wrong.outputs[0] = sent("firebase", "other")
    var blocked = goodPlay(2, screen: "podcasts")
    blocked.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "consent")
    var left = validate([wrong, blocked], plan: plan).1.coverage
    var notAgain = goodPlay(3, screen: "podcasts")
    notAgain.outputs[1] = ProviderOutput(provider: "amplitude", status: .blocked, reason: "disabled")
    let right = validate([goodPlay(4, screen: "favorites"), notAgain], plan: plan).1.coverage
    let favorites = try item("action playPodcast on favorites: firebase", left)
    let amplitude = try item("action playPodcast on podcasts: amplitude", left)
    XCTAssertEqual(left.state(at: favorites), .failing(rules: [.wrongName], broken: 1, records: 1))
    left.merge(right)
    XCTAssertEqual(
      left.state(at: favorites), .failing(rules: [.wrongName], broken: 1, records: 2),
      "passing in the second file does not undo the first's break")
    XCTAssertEqual(left.state(at: amplitude), .blocked(reasons: ["consent", "disabled"]))
    // Merging equals validating everything with one validator.
    let whole = validate([wrong, blocked, goodPlay(4, screen: "favorites"), notAgain], plan: plan).1.coverage
    XCTAssertEqual(left.states, whole.states)
    XCTAssertEqual(left.counts, whole.counts)
  }
}

final class ExpectationComparisonTests: XCTestCase {
  func testWrongNameComparesTheCallAndItsParams() throws {
    var wrong = goodPlay(1, screen: "favorites")
    wrong.outputs[0] = sent("firebase", "play_podcast_from_podcasts", ["podcast_title": "T"])
    let violation = try XCTUnwrap(validate([wrong], plan: try samplePlan()).0.first)
    let comparison = violation.comparison
    XCTAssertEqual(comparison.planFile, "sample.yaml")
    XCTAssertEqual(comparison.planLine, 21)
    XCTAssertEqual(comparison.title, "firebase play_podcast_from_favorites")
    XCTAssertEqual(
      comparison.rows,
      [
        .init(
          field: "call", expected: "play_podcast_from_favorites",
          actual: "logEvent play_podcast_from_podcasts",
          differs: true),
        // The renamed call's parameters, aligned with the planned ones.
        .init(field: "param podcast_title", expected: "present", actual: "\"T\"", differs: false),
        .init(field: "param podcast_duration", expected: "present", actual: "absent", differs: true),
      ])
  }

  func testMissingParamMarksTheAbsentParam() throws {
    var play = goodPlay(1, screen: "favorites")
    play.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": "T"])
    let violation = try XCTUnwrap(validate([play], plan: try samplePlan()).0.first)
    XCTAssertEqual(violation.rule, .missingParam)
    XCTAssertEqual(
      violation.comparison.rows.map { "\($0.field)|\($0.expected)|\($0.actual)|\($0.differs)" },
      [
        "call|play_podcast_from_favorites|logEvent play_podcast_from_favorites|false",
        "param podcast_title|present|\"T\"|false",
        "param podcast_duration|present|absent|true",
      ])
  }

  func testPropertyScreenAndUnplannedComparisons() throws {
    let plan = try samplePlan()
    let long = record(
      1, .userAction, "playPodcast",
      ["podcast_title": .string(String(repeating: "x", count: 30)), "extra": 1],
      screen: "settings")
    let found = validate([long, record(2, .userAction, "nope")], plan: plan).0
    let rows = found.map { $0.comparison }
    XCTAssertEqual(
      rows.map(\.title), ["property podcast_title", "property extra", "screen", "action nope"])
    XCTAssertEqual(rows[0].rows[0].expected, "string, required, maxLength 20")
    XCTAssertEqual(rows[0].planLine, 14)
    XCTAssertEqual(
      rows[1].rows[0].expected, "not planned (plan lists podcast_title, podcast_duration, podcast_id)")
    XCTAssertEqual(rows[2].rows[0].expected, "podcasts or favorites")
    XCTAssertEqual(rows[2].rows[0].actual, "settings")
    XCTAssertNil(rows[3].planLine)
    XCTAssertTrue(rows.allSatisfy { $0.rows.contains(where: \.differs) })
    // A violation made by hand still compares (its message).
    let manual = PlanViolation(
      seq: 1, severity: .error, rule: .wrongName, tag: "t", message: "m", planLine: 3)
    XCTAssertEqual(manual.comparison.rows.first?.actual, "m")
    XCTAssertEqual(manual.comparison.planLine, 3)
  }

  func testHugeValuesAreClippedInRows() throws {
    let plan = try samplePlan()
    let huge = record(
      1, .userAction, "playPodcast", ["podcast_title": .string(String(repeating: "é", count: 100_000))],
      screen: "favorites")
    let violation = try XCTUnwrap(validate([huge], plan: plan).0.first)
    XCTAssertLessThanOrEqual(violation.comparison.rows[0].actual.count, ExpectationComparison.valueLimit + 1)
  }
}

/// The debugger lists the records of a checklist item with the item's own filter.
final class CoverageItemFilterTests: XCTestCase {
  func testAnItemsDebuggerFilterNamesItsKindNameScreenAndProvider() {
    let location = SourceLocation(line: 3, column: 1)
    XCTAssertEqual(
      CoverageItem(
        section: .actions, tag: "playPodcast", screen: "favorites", provider: "firebase", location: location
      )
      .debuggerFilter,
      "kind:action name:playPodcast screen:favorites provider:firebase")
    XCTAssertEqual(
      CoverageItem(section: .screens, tag: "podcasts", location: location).debuggerFilter,
      "kind:screen name:podcasts")
    XCTAssertEqual(
      CoverageItem(section: .timed, tag: "listening", provider: "Google Analytics", location: location)
        .debuggerFilter,
      "kind:timed name:listening provider:\"Google Analytics\"")
  }
}
