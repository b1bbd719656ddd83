import AnalyticsHub
import TagscopeInspector
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TaggingPlan

final class PlanValidatorTests: XCTestCase {
  private func check(_ record: Record) throws -> [PlanViolation] {
    validate([record], plan: try samplePlan()).0
  }

  private func only(_ violations: [PlanViolation], file: StaticString = #filePath, line: UInt = #line)
    -> PlanViolation?
  {
    XCTAssertEqual(violations.count, 1, "\(violations.map(\.message))", file: file, line: line)
    return violations.first
  }

  func testConformingRecordsHaveNoViolation() throws {
    XCTAssertEqual(try check(goodPlay(1, screen: "favorites")), [])
    XCTAssertEqual(try check(goodPlay(2, screen: "podcasts")), [])
    let screen = record(
      3, .screen, "podcasts", screen: "podcasts",
      outputs: [sent("firebase", "screen_view", ["screen_name": "show_podcasts"])])
    XCTAssertEqual(try check(screen), [])
  }

  func testUnplannedTag() throws {
    let violation = only(try check(record(4, .userAction, "sharePodcast", screen: "podcasts")))
    XCTAssertEqual(violation?.rule, .unplannedTag)
    XCTAssertEqual(violation?.severity, .error)
    XCTAssertEqual(violation?.tag, "sharePodcast")
    XCTAssertEqual(violation?.message, "sharePodcast on podcasts: action sharePodcast is not in the plan")
  }

  func testLifecycleKindsAndUnknownKindsAreNotChecked() throws {
    let records = [
      record(1, .sessionStart, "session"), record(2, .identify, "identify"), record(3, .consent, "consent"),
      record(4, .reset, "reset"), record(5, "futureKind", "whatever"),
    ]
    XCTAssertEqual(validate(records, plan: try samplePlan()).0, [])
  }

  func testTimedRecordsAreUnplannedOnlyWhenThePlanHasATimedSection() throws {
    let violation = only(try check(record(1, .timedStart, "onboarding")))
    XCTAssertEqual(violation?.rule, .unplannedTag)
    let plan = try PlanLoader.load(yaml: "plan: P\nscreens:\n  home: {}\n", file: "p.yaml")
    XCTAssertEqual(validate([record(1, .timedStart, "onboarding")], plan: plan).0, [])
  }

  func testMissingProperty() throws {
    var play = goodPlay(5)
    play.properties["podcast_title"] = nil
    let violations = try check(play).filter { $0.rule == .missingProperty }
    let violation = only(violations)
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: property podcast_title is missing, plan line 14 requires it")
    XCTAssertEqual(violation?.planLine, 14)
    XCTAssertEqual(violation?.seq, 5)
    XCTAssertNil(violation?.provider)
  }

  func testWrongType() throws {
    var play = goodPlay(6)
    play.properties["podcast_duration"] = "1830"
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .wrongType)
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: property podcast_duration is a string (\"1830\"), plan line 15 expects integer"
    )
  }

  func testInvalidValueForEnumPatternRangeAndLength() throws {
    var play = goodPlay(7)
    play.properties["podcast_title"] = "A title far longer than twenty"
    play.properties["podcast_duration"] = -1
    play.properties["podcast_id"] = "x1"
    let violations = try check(play)
    XCTAssertEqual(violations.map(\.rule), [.invalidValue, .invalidValue, .invalidValue])
    XCTAssertEqual(
      violations.map(\.message),
      [
        "playPodcast on favorites: property podcast_title is 30 characters long, plan line 14 allows at most 20",
        "playPodcast on favorites: property podcast_duration is -1, plan line 15 expects at least 0",
        "playPodcast on favorites: property podcast_id is \"x1\", plan line 16 expects pattern ^p[0-9]+$",
      ])
    let fail = record(8, .event, "playerDidFail", ["error": "timeout"], screen: "podcastPlayer")
    let violation = only(try check(fail))
    XCTAssertEqual(violation?.rule, .invalidValue)
    XCTAssertEqual(violation?.severity, .warning)
    XCTAssertEqual(
      violation?.message,
      "playerDidFail on podcastPlayer: property error is \"timeout\", plan line 28 allows only \"network\", \"decoding\""
    )
  }

  func testUnexpectedProperty() throws {
    var play = goodPlay(9)
    play.properties["autoplay"] = true
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .unexpectedProperty)
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: property autoplay is not planned, plan line 13 lists podcast_title, podcast_duration, podcast_id"
    )
  }

  func testTimedStopMayCarryDurationAndCancelled() throws {
    let plan = try PlanLoader.load(yaml: "plan: P\ntimed:\n  onboarding: {properties: {}}\n", file: "p.yaml")
    let stop = record(1, .timedStop, "onboarding", ["duration": 12.5, "cancelled": true])
    XCTAssertEqual(validate([stop], plan: plan).0, [])
    let start = record(2, .timedStart, "onboarding", ["duration": 12.5])
    XCTAssertEqual(validate([start], plan: plan).0.map(\.rule), [.unexpectedProperty])
  }

  func testWrongScreen() throws {
    let play = goodPlay(10, screen: "podcastPlayer")
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .wrongScreen)
    XCTAssertEqual(
      violation?.message,
      "playPodcast on podcastPlayer: playPodcast happened on podcastPlayer, plan line 17 allows only podcasts, favorites"
    )
  }

  func testMissingCallWhenDroppedOrFailed() throws {
    var play = goodPlay(11)
    play.outputs[1] = ProviderOutput(provider: "amplitude", status: .dropped)
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .missingCall)
    XCTAssertEqual(violation?.provider, "amplitude")
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: amplitude got no call (dropped), plan line 22 expects Play Podcast")
    play.outputs[1] = ProviderOutput(
      provider: "amplitude", status: .failed, reason: "network down",
      calls: [CallDescription(method: "track", name: "Play Podcast")])
    XCTAssertEqual(
      only(try check(play))?.message,
      "playPodcast on favorites: amplitude failed (network down), plan line 22 expects Play Podcast")
  }

  func testWrongName() throws {
    var play = goodPlay(12, screen: "favorites")
    play.outputs[0] = sent(
      "firebase", "play_podcast_from_podcasts", ["podcast_title": "T", "podcast_duration": 1])
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .wrongName)
    XCTAssertEqual(violation?.provider, "firebase")
    XCTAssertEqual(violation?.restatesRecordedRule, false, "found by the provider's rules, not on the record")
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: firebase got play_podcast_from_podcasts, plan line 21 expects play_podcast_from_favorites"
    )
  }

  func testMissingParamAndWrongParamValue() throws {
    var play = goodPlay(13)
    play.outputs[0] = sent("firebase", "play_podcast_from_favorites", ["podcast_title": "T"])
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .missingParam)
    XCTAssertEqual(
      violation?.message,
      "playPodcast on favorites: firebase play_podcast_from_favorites has no parameter podcast_duration, plan line 21 expects it"
    )
    let screen = record(
      14, .screen, "podcasts", screen: "podcasts",
      outputs: [sent("firebase", "screen_view", ["screen_name": "show_podcast"])])
    let wrong = only(try check(screen))
    XCTAssertEqual(wrong?.rule, .invalidValue)
    XCTAssertEqual(
      wrong?.message,
      "screen podcasts: firebase screen_view parameter screen_name is \"show_podcast\", plan line 6 expects \"show_podcasts\""
    )
  }

  func testUnexpectedCallWherePlanSaysNone() throws {
    var play = goodPlay(15)
    play.outputs[2] = sent("piano", "play", [:], method: "sendEvent")
    let violation = only(try check(play))
    XCTAssertEqual(violation?.rule, .unexpectedCall)
    XCTAssertEqual(violation?.provider, "piano")
    XCTAssertEqual(
      violation?.message, "playPodcast on favorites: piano got play, plan line 23 expects no call")
  }

  func testProviderRuleFromRecordedViolations() throws {
    var play = goodPlay(16)
    play.outputs[0].violations = [
      RecordViolation(
        rule: "firebase.event-name-length", message: "event name is 41 characters, the limit is 40",
        consequence: "dropped")
    ]
    play.outputs[1].violations = [
      RecordViolation(rule: "amplitude.property-type", message: "mixed types", consequence: "degraded")
    ]
    let violations = try check(play)
    XCTAssertEqual(violations.map(\.rule), [.providerRule, .providerRule])
    XCTAssertEqual(violations.map(\.severity), [.error, .warning])
    // The plan's reports of the hub's findings: one violation each, which the record carries.
    XCTAssertEqual(violations.map(\.restatesRecordedRule), [true, true])
    XCTAssertEqual(
      violations[0].message,
      "playPodcast on favorites: firebase rule firebase.event-name-length broken: event name is 41 characters, the limit is 40"
    )
    let unplanned = record(17, .sessionStart, "session", outputs: play.outputs)
    XCTAssertEqual(
      validate([unplanned], plan: try samplePlan()).0.map(\.rule), [.providerRule, .providerRule])
  }

  func testRecordsWithoutRecordedViolationsAreCheckedWithProviderRules() throws {
    let longName = String(repeating: "a", count: 41)
    var listened = record(
      23, .event, "playerDidFail", ["error": "network"], screen: "podcastPlayer",
      outputs: [sent("firebase", longName)])
    // A hub record without recorded violations (an app built without rule checks, another tool)
    // is checked like one from listen.
    XCTAssertEqual(only(try check(listened))?.rule, .providerRule)
    listened.source = "127.0.0.1:50312"
    let violation = only(try check(listened))
    XCTAssertEqual(violation?.rule, .providerRule)
    XCTAssertEqual(violation?.provider, "firebase")
    XCTAssertEqual(violation?.restatesRecordedRule, false, "found by the provider's rules, not on the record")
    XCTAssertTrue(violation?.message.contains("firebase rule firebase.event-name-length broken") ?? false)
  }

  func testListenSourcesKeepTheirOwnProviderCounts() throws {
    let plan = try PlanLoader.load(yaml: "plan: P\nstates: {}\n", file: "p.yaml")
    func userProperty(_ seq: Int, source: String) -> Record {
      var state = record(
        UInt64(seq), .sessionUpdate, "session",
        outputs: [sent("firebase", "property_\(seq)", ["value": "x"], method: "setUserProperty")])
      state.source = source
      return state
    }
    let oneDevice = (1...26).map { userProperty($0, source: "device-a") }
    let found = validate(oneDevice, plan: plan).0
    XCTAssertEqual(found.map(\.seq), [26])
    XCTAssertTrue(found.first?.message.contains("firebase.user-property-count") ?? false)
    let twoDevices = (1...26).map { userProperty($0, source: $0.isMultiple(of: 2) ? "device-a" : "device-b") }
    XCTAssertEqual(validate(twoDevices, plan: plan).0, [])
  }

  func testBlockedProviderIsExpectedAndNotCovered() throws {
    var play = goodPlay(18)
    play.outputs[0] = ProviderOutput(provider: "firebase", status: .blocked, reason: "consent")
    play.outputs[2] = ProviderOutput(provider: "piano", status: .blocked, reason: "disabled")
    let (violations, validator) = validate([play], plan: try samplePlan())
    XCTAssertEqual(violations, [])
    let seen = validator.coverage.items.indices.filter { validator.coverage.isSeen($0) }.map {
      validator.coverage.items[$0].id
    }
    XCTAssertEqual(seen, ["action playPodcast", "action playPodcast on favorites: amplitude"])
  }

  func testProviderAbsentFromOutputsIsNotChecked() throws {
    var play = goodPlay(19)
    play.outputs = [sent("segment", "Play Podcast")]
    XCTAssertEqual(try check(play), [])
  }

  func testTimedPhaseConditions() throws {
    let start = record(
      20, .timedStart, "listening", outputs: [ProviderOutput(provider: "firebase", status: .dropped)])
    let stop = record(
      21, .timedStop, "listening", ["duration": 3.5],
      outputs: [sent("firebase", "listening", ["duration": 3.5])])
    let badStop = record(
      22, .timedStop, "listening", ["duration": 3.5],
      outputs: [sent("firebase", "listening", ["duration": -1])])
    let violations = validate([start, stop, badStop], plan: try samplePlan()).0
    XCTAssertEqual(violations.map(\.seq), [22])
    XCTAssertEqual(violations.first?.rule, .invalidValue)
    XCTAssertEqual(
      violations.first?.message,
      "listening: firebase listening parameter duration is -1, plan line 35 expects at least 0")
  }

  func testUnconditionalCallsAreTheFallbackAndCancelIsItsOwnPhase() throws {
    let yaml = """
      plan: P
      screens:
        a: {}
        b: {}
      actions:
        pause:
          providers:
            firebase:
              - {when: {screen: b}, name: pause_from_b}
              - {name: pause}
      timed:
        onboarding:
          providers:
            firebase:
              - {when: {phase: start}, name: onboarding_start}
              - {when: {phase: stop}, name: onboarding_stop}
              - {when: {phase: cancel}, name: onboarding_cancel}
      """
    let plan = try PlanLoader.load(yaml: yaml, file: "p.yaml")
    let records = [
      record(1, .userAction, "pause", screen: "a", outputs: [sent("firebase", "pause")]),
      record(2, .userAction, "pause", screen: "b", outputs: [sent("firebase", "pause_from_b")]),
      record(3, .userAction, "pause", screen: "b", outputs: [sent("firebase", "pause")]),
      record(4, .timedStart, "onboarding", outputs: [sent("firebase", "onboarding_start")]),
      record(5, .timedStop, "onboarding", ["duration": 1.0], outputs: [sent("firebase", "onboarding_stop")]),
      record(
        6, .timedStop, "onboarding", ["duration": 1.0, "cancelled": true],
        outputs: [sent("firebase", "onboarding_cancel")]),
      record(
        7, .timedStop, "onboarding", ["duration": 1.0, "cancelled": true],
        outputs: [sent("firebase", "onboarding_stop")]),
    ]
    let violations = validate(records, plan: plan).0
    XCTAssertEqual(violations.map(\.seq), [3, 7])
    XCTAssertEqual(violations.map(\.rule), [.wrongName, .wrongName])
    XCTAssertEqual(violations[0].message, "pause on b: firebase got pause, plan line 9 expects pause_from_b")
    XCTAssertEqual(
      violations[1].message,
      "onboarding: firebase got onboarding_stop, plan line 17 expects onboarding_cancel")
  }

  func testEveryRuleIdIsProducedByTheseTests() throws {
    let plan = try samplePlan()
    var records: [Record] = []
    var play = goodPlay(1)
    play.properties["podcast_title"] = nil
    play.properties["podcast_duration"] = "x"
    play.properties["podcast_id"] = "nope"
    play.properties["extra"] = 1
    play.outputs[0] = sent("firebase", "play_podcast_from_podcasts")
    play.outputs[1] = ProviderOutput(provider: "amplitude", status: .dropped)
    play.outputs[2] = sent("piano", "play")
    play.outputs[2].violations = [RecordViolation(rule: "piano.r", message: "m", consequence: "rejected")]
    records.append(play)
    records.append(goodPlay(2, screen: "podcastPlayer"))
    records.append(record(3, .userAction, "nothing"))
    var params = goodPlay(4)
    params.outputs[0] = sent("firebase", "play_podcast_from_favorites")
    records.append(params)
    records.append(
      record(6, .identify, "identify", outputs: [sent("firebase", "setUserId", ["id": "jo@example.com"])]))
    var produced = Set(validate(records, plan: plan).0.map(\.rule))
    let catalogued = try PlanLoader.load(yaml: "plan: C\ncatalogues: {piano: {calls: {}}}", file: "c.yaml")
    produced.formUnion(
      validate([record(5, .event, "e", outputs: [sent("piano", "p")])], plan: catalogued).0.map(\.rule))
    // The journey rules' ids are produced by JourneyRuleTests, the consent ones by ConsentCheckTests.
    let journeys: Set<ViolationRule> = [.outOfOrder, .repeated, .duplicate, .funnelDropped, .funnelOrder]
    let consent: Set<ViolationRule> = [.consentWithdrawn, .consentUnchecked]
    XCTAssertEqual(produced, Set(ViolationRule.allCases).subtracting(journeys).subtracting(consent))
  }
}
