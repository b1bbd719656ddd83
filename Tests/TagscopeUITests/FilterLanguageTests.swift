import AnalyticsHub
import TagscopeRecording
import TagscopeTimeline
import XCTest

@testable import TagscopeUI

/// Issue 13: the filter language — terms AND-ed, `key:` exact, `key~` a part or `/regex/`, kind
/// aliases, violations by provider or rule, quoted values, Ctrl-U and Ctrl-W.
final class FilterLanguageTests: XCTestCase {
  private func matches(_ text: String, _ store: FixtureStore = Fixtures.store()) -> [Int] {
    var state = Fixtures.state(store)
    state.applyFilterForTest(text)
    return state.matches ?? []
  }

  func testNameIsExactAndTildeIsAPartOrARegex() {
    XCTAssertEqual(matches("name:playpodcast"), [3], "exact, any case")
    XCTAssertEqual(matches("name:play"), [], "not a part")
    XCTAssertEqual(matches("name~play"), [3, 5, 8], "playPodcast, podcastPlayer, playerDidFail")
    XCTAssertEqual(matches("play"), [3, 5, 8], "a bare word is a part of the name")
    XCTAssertEqual(matches("name~/^play/"), [3, 8], "a regular expression")
    XCTAssertEqual(matches("/Podcast$/"), [3, 7], "a bare /regex/ is on the name")
  }

  func testTermsCombineWithAnd() {
    XCTAssertEqual(matches("kind:screen"), [2, 5, 11])
    XCTAssertEqual(matches("kind:screen name~podcast"), [2, 5], "both must hold")
    XCTAssertEqual(matches("kind:screen kind:event"), [], "two kinds: no record is both")
    XCTAssertEqual(matches("name~play name~/Fail$/"), [8])
  }

  func testKindAliases() {
    XCTAssertEqual(matches("kind:action"), matches("kind:userAction"))
    XCTAssertEqual(matches("kind:action"), [3, 7, 10])
    XCTAssertEqual(matches("kind:timed"), [1, 4], "timedStart and timedStop")
    XCTAssertEqual(matches("kind:session"), [0, 9], "sessionStart, sessionUpdate and sessionEnd")
    XCTAssertEqual(matches("kind~time"), [1, 4])
    guard case .failure(let error) = Filter.parse("kind:tap") else { return XCTFail("accepted") }
    XCTAssertTrue(error.message.contains("action"), "the aliases are listed: \(error.message)")
  }

  func testProviderExactOrPartWithItsStatus() {
    XCTAssertEqual(matches("provider:braze status:blocked"), [7, 8, 10])
    XCTAssertEqual(matches("provider:bra"), [], "provider: is exact")
    XCTAssertEqual(matches("provider~bra status:blocked"), [7, 8, 10])
    XCTAssertEqual(matches("provider~/^(amplitude|braze)$/ status:sent"), [3, 7])
  }

  func testViolationsByProviderAndByRule() {
    let store = Fixtures.store()
    store.plan.add(
      PlanFinding(
        provider: "amplitude",
        violation: RecordViolation(rule: "plan.wrong-name", message: "m", consequence: "error")), at: 3)
    store.timeline.setPlanViolations(1, at: 3)
    XCTAssertEqual(matches("has:violations", store), [3, 10])
    XCTAssertEqual(matches("has:violations:firebase", store), [10], "the hub's rule violation on firebase")
    XCTAssertEqual(matches("has:violations:amplitude", store), [3], "the plan's finding on amplitude")
    XCTAssertEqual(matches("has:violations:piano", store), [])
    XCTAssertEqual(matches("rule:wrong-name", store), [3], "a rule id's last part")
    XCTAssertEqual(matches("rule:plan.wrong-name", store), [3], "or the whole id")
    XCTAssertEqual(matches("rule:event-name-length", store), [10])
    XCTAssertEqual(matches("rule~length", store), [10])
    XCTAssertEqual(matches("rule:wrong-name has:violations:firebase", store), [], "AND: no record has both")
  }

  func testCallsByNameOrSDKMethod() {
    XCTAssertEqual(matches("call:\"Play Podcast\""), [3, 7], "amplitude's call name, quoted")
    XCTAssertEqual(matches("call:logCustomEvent"), [3], "braze's SDK method")
    XCTAssertEqual(matches("call:\"play podcast\" name~play"), [3], "AND with the index's terms")
    XCTAssertEqual(matches("call~/^play_podcast/"), [3])
    XCTAssertEqual(matches("call:play_pod"), [], "call: is exact")
  }

  func testValuesOfPropertiesAndCallParameters() {
    var records = Fixtures.podcastRecords()
    records[3].properties["sku"] = "A-1"
    records[7].properties["sku"] = "B-2"
    let store = Fixtures.store(records)
    var state = Fixtures.state(store)
    state.type("/")
    state.type("prop.sku:A-1")
    state.apply(.key(.enter))
    XCTAssertEqual(state.overlay, .none)
    XCTAssertEqual(state.matches, [3], "/prop.sku:A-1 filters the list")
    XCTAssertEqual(state.visibleCount, 1)
    XCTAssertEqual(matches("prop.sku:a-1 name:playPodcast", store), [3], "AND with the index's terms")
    XCTAssertEqual(matches("prop.sku~-", store), [3, 7])
    XCTAssertEqual(matches("prop.podcast_title~radio"), [7])
    XCTAssertEqual(matches("prop.podcast_title:\"hardcore history\""), [10], "quoted, any case")
    XCTAssertEqual(matches("prop.podcast_duration>1000"), [3])
    XCTAssertEqual(matches("prop.podcast_duration<1000"), [], "the only duration is 1830")
    XCTAssertEqual(matches("prop.podcast_title>1"), [], "a string is no number")
    XCTAssertEqual(matches("prop.granted:false"), [6])
    XCTAssertEqual(matches("param.podcast_title:\"Swift by Sundell\""), [3, 7], "amplitude's call on 7")
    XCTAssertEqual(matches("param.screen_name~/^show_/"), [2])
    XCTAssertEqual(matches("param.podcast_duration>=1830 provider:braze"), [3, 7])

    state.type("/")
    for _ in 0..<20 { state.apply(.key(.backspace)) }
    state.type("param.podcast_duration>long")
    state.apply(.key(.enter))
    XCTAssertEqual(state.overlay, .filter("param.podcast_duration>long"), "an invalid filter stays open")
    XCTAssertEqual(
      state.state.notice?.text,
      "param.podcast_duration>long: \"long\" is not a number (> compares numbers)")
    XCTAssertEqual(state.matches, [3], "the last filter stays")
  }

  func testDeliveryKeepsRecordsWithACallInThatState() {
    let store = Fixtures.store()
    store.delivery.set(["delivered", "lost"], at: 3)
    store.delivery.set(["queued"], at: 7)
    store.delivery.set(["lost"], at: 10)
    XCTAssertEqual(matches("delivery:lost", store), [3, 10])
    XCTAssertEqual(matches("delivery:Queued", store), [7], "any case")
    XCTAssertEqual(matches("delivery:delivered delivery:lost", store), [3], "each term a call in its state")
    XCTAssertEqual(matches("delivery:lost kind:action", store), [3, 10], "AND with the index's terms")
    XCTAssertEqual(matches("delivery:in-flight", store), [], "inFlight, spelt with a dash")
    XCTAssertEqual(matches("delivery:lost", Fixtures.store()), [], "no call in that state")
    guard case .failure(let error) = Filter.parse("delivery:gone") else { return XCTFail("accepted") }
    XCTAssertTrue(error.message.contains("noWireSource"), "the states are listed: \(error.message)")
    guard case .failure = Filter.parse("delivery~lo") else { return XCTFail("delivery~ accepted") }
  }

  func testQuotedValuesKeepTheirSpaces() {
    var records = Array(Fixtures.podcastRecords().prefix(4))
    for index in records.indices { records[index].source = index < 2 ? "Podcasts@iPhone 15 #2" : "other" }
    let store = Fixtures.store(records)
    XCTAssertEqual(matches("source:\"podcasts@iphone 15 #2\"", store), [0, 1])
    XCTAssertEqual(matches("source~\"iphone 15\"", store), [0, 1])
    guard case .failure(let error) = Filter.parse("source:\"open") else { return XCTFail("accepted") }
    XCTAssertEqual(error.message, "a quote is not closed")
    var state = Fixtures.state(store)
    state.type("s")
    XCTAssertEqual(state.filterText, "source:\"Podcasts@iPhone 15 #2\"", "s quotes a source with spaces")
    XCTAssertEqual(state.visibleCount, 2)
    state.type("s")
    XCTAssertEqual(state.filterText, "source:other")
  }

  func testCtrlUAndCtrlWEditTheInputs() {
    var state = Fixtures.state()
    state.type("/")
    state.type("kind:screen name~pod")
    state.apply(.key(.control("w")))
    XCTAssertEqual(state.overlay, .filter("kind:screen "))
    state.apply(.key(.control("w")))
    XCTAssertEqual(state.overlay, .filter(""))
    state.type("abc")
    state.apply(.key(.control("u")))
    XCTAssertEqual(state.overlay, .filter(""))
    state.apply(.key(.escape))
    state.type(":12")
    state.apply(.key(.control("u")))
    XCTAssertEqual(state.overlay, .jump(""))
  }

  func testTheHelpDocumentsTheLanguage() {
    var state = Fixtures.state(size: Size(width: 200, height: 50))
    state.type("?")
    let text = render(state).text
    for entry in [
      "every term must match (AND)", "exact (any case) · key~v a part of it · key~/re/ a regular expression",
      "action (= userAction)", "has:violations:amplitude", "rule:wrong-name", "call:identify",
      "prop.sku:A-1 (a tag property)", "param.value>10 (a parameter of any provider call)",
      "ctrl-U clears the input",
    ] {
      XCTAssertTrue(text.contains(entry), "help lacks \(entry):\n\(text)")
    }
  }

  func testEveryPatternIsCheckedAsYouType() {
    for text in [
      "name~/(/", "kind~/[/", "rule~/(/", "screen~/(/", "provider~/(/", "source~/(/", "call~/(/",
      "prop.a~/(/",
      "param.a~/[/",
    ] {
      guard case .failure(let error) = Filter.parse(text) else { return XCTFail("\(text) accepted") }
      XCTAssertTrue(error.message.hasPrefix("invalid regular expression"), "\(text): \(error.message)")
    }
    guard case .failure(let empty) = Filter.parse("name:") else { return XCTFail("accepted") }
    XCTAssertEqual(empty.message, "name: needs a value")
  }
}
