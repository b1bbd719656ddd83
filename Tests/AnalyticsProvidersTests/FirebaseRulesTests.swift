import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import Foundation
import XCTest

final class FirebaseRulesTests: XCTestCase {
  func testValidCallsBreakNoRule() {
    let calls: [FirebaseCall] = [
      .screenView(name: "show_podcasts", screenClass: "PodcastsViewController"),
      .logEvent("play_podcast_from_favorites", ["podcast_title": "Radiolab", "podcast_duration": 3300]),
      .logEvent("select_content", ["items": [["item_id": "p1"]]]),
      .setUserProperty("true", forName: "autoplay_enabled"),
      .setUserProperty(nil, forName: "autoplay_enabled"),
      .setUserID("u-42"), .setUserID(nil), .setDefaultEventParameters(["app_theme": "dark"]),
      .setConsent(FirebaseConsent(analyticsStorage: .granted)), .setAnalyticsCollectionEnabled(true),
      .resetAnalyticsData,
    ]
    XCTAssertEqual(firebase(calls), [])
  }

  func testEventNameOver40CharactersIsReplacedByErrorCode2() {
    let name = String(repeating: "a", count: 41)
    assertSingle(
      firebase([.logEvent("ok_event", [:]), .logEvent(name, [:])]),
      rule: "firebase.event-name-length", consequence: .replaced, errorCode: 2, callIndex: 1)
    XCTAssertEqual(firebase([.logEvent(String(repeating: "a", count: 40), [:])]), [])
  }

  func testEmptyEventNameIsErrorCode2() {
    assertSingle(
      firebase([.logEvent("", [:])]), rule: "firebase.event-name-length",
      consequence: .replaced, errorCode: 2)
  }

  func testEventNameCharacters() {
    for name in ["play podcast", "1st_play", "play-podcast", "_play"] {
      assertSingle(
        firebase([.logEvent(name, [:])]), rule: "firebase.event-name-characters",
        consequence: .replaced, errorCode: 2)
    }
    XCTAssertEqual(firebase([.logEvent("écoute_podcast", [:])]), [], "non-ASCII letters count")
  }

  func testReservedPrefixes() {
    for name in ["firebase_play", "google_play", "ga_play"] {
      assertSingle(
        firebase([.logEvent(name, [:])]), rule: "firebase.event-name-reserved-prefix",
        consequence: .replaced, errorCode: 13)
    }
  }

  func testReservedEventNameIsErrorCode13() {
    assertSingle(
      firebase([.logEvent("session_start", [:])]), rule: "firebase.event-name-reserved",
      consequence: .replaced, errorCode: 13)
  }

  func testMoreThan500EventTypesIsErrorCode8() {
    var calls = (0..<500).map { FirebaseCall.logEvent("event_\($0)", [:]) }
    calls.append(.logEvent("event_0", [:]))
    XCTAssertEqual(firebase(calls), [], "repeating a known event is fine")
    calls.append(.logEvent("event_500", [:]))
    assertSingle(
      firebase(calls), rule: "firebase.event-type-count", consequence: .dropped, errorCode: 8,
      callIndex: 501)
  }

  func testScreenViewWithoutScreenNameIsDegraded() {
    assertSingle(
      firebase([.logEvent("screen_view", ["screen_class": "PlayerViewController"])]),
      rule: "firebase.screen-view-name", consequence: .degraded)
  }

  func testMoreThan25ParametersIsErrorCode5() {
    XCTAssertEqual(firebase([.logEvent("big", manyProperties(25))]), [])
    assertSingle(
      firebase([.logEvent("big", manyProperties(26))]), rule: "firebase.parameter-count",
      consequence: .dropped, errorCode: 5)
  }

  func testInvalidParameterNameIsErrorCode3() {
    for key in ["podcast title", String(repeating: "p", count: 41), "1st", ""] {
      assertSingle(
        firebase([.logEvent("play", [key: "x"])]), rule: "firebase.parameter-name",
        consequence: .replaced, errorCode: 3)
    }
  }

  func testReservedParameterPrefixIsErrorCode14() {
    assertSingle(
      firebase([.logEvent("play", ["firebase_screen": "x"])]),
      rule: "firebase.parameter-name-reserved", consequence: .replaced, errorCode: 14)
  }

  func testParameterValueOver100CharactersIsErrorCode4() {
    XCTAssertEqual(firebase([.logEvent("play", ["title": .string(String(repeating: "t", count: 100))])]), [])
    assertSingle(
      firebase([.logEvent("play", ["title": .string(String(repeating: "t", count: 101))])]),
      rule: "firebase.parameter-value-length", consequence: .dropped, errorCode: 4)
  }

  func testDefaultParametersFollowTheParameterRules() {
    assertSingle(
      firebase([.setDefaultEventParameters(["ga_campaign": "x"])]),
      rule: "firebase.parameter-name-reserved", consequence: .replaced, errorCode: 14)
  }

  func testUnsupportedParameterTypeIsDropped() {
    assertSingle(
      firebase([.logEvent("play", ["played_at": .date(Date(timeIntervalSince1970: 0))])]),
      rule: "firebase.parameter-value-type", consequence: .dropped)
  }

  func testUserPropertyNameOver24IsErrorCode6() {
    let name = String(repeating: "u", count: 25)
    assertSingle(
      firebase([.setUserProperty("x", forName: name)]), rule: "firebase.user-property-name",
      consequence: .replaced, errorCode: 6)
  }

  func testReservedUserPropertyIsErrorCode15() {
    for name in ["user_id", "first_open_time", "google_flag"] {
      assertSingle(
        firebase([.setUserProperty("x", forName: name)]),
        rule: "firebase.user-property-reserved", consequence: .replaced, errorCode: 15)
    }
  }

  func testUserPropertyValueOver36IsErrorCode7() {
    assertSingle(
      firebase([.setUserProperty(String(repeating: "v", count: 37), forName: "plan")]),
      rule: "firebase.user-property-value-length", consequence: .replaced, errorCode: 7)
  }

  func testTwentySixthUserPropertyIsErrorCode9() {
    var calls = (0..<25).map { FirebaseCall.setUserProperty("x", forName: "prop_\($0)") }
    XCTAssertEqual(firebase(calls), [])
    calls.append(.setUserProperty("y", forName: "prop_25"))
    assertSingle(
      firebase(calls), rule: "firebase.user-property-count", consequence: .dropped,
      errorCode: 9, callIndex: 25)
  }

  func testUserIDOver256CharactersIsDropped() {
    assertSingle(
      firebase([.setUserID(String(repeating: "1", count: 257))]),
      rule: "firebase.user-id-length", consequence: .dropped)
  }

  func testErrorCodesMatchFirebaseTable() {
    XCTAssertEqual(
      FirebaseErrorCode.allCases.map(\.rawValue), [2, 3, 4, 5, 6, 7, 8, 9, 13, 14, 15])
  }

  func testProviderCountsUserPropertiesAcrossTags() throws {
    let adapter = TestAdapter<FirebaseCall>()
    let provider: Provider<PropertyTaxonomy> = Firebase.provider(adapter: adapter) { tag, _ in
      guard case .state(let state) = tag else { return [] }
      return [.setUserProperty("1", forName: state.name)]
    }
    let hub = try AnalyticsHub(providers: [provider])
    let recorder = DispatchRecorder()
    hub.addObserver(recorder)
    for index in 0..<26 { hub.send(state: PropertyTag(name: "prop_\(index)")) }
    hub.flush()
    XCTAssertEqual(recorder.dispatches.prefix(25).flatMap { $0.outcomes.flatMap(\.violations) }, [])
    let last = try XCTUnwrap(recorder.last?.outcome(for: Firebase.id))
    XCTAssertEqual(last.violations.map(\.rule), ["firebase.user-property-count"])
    XCTAssertEqual(last.violations.first?.errorCode, 9)
    XCTAssertEqual(adapter.calls.count, 26, "the adapter still gets what the real SDK would get")
  }
}

/// A taxonomy whose states are named freely, for counting tests.
enum PropertyTaxonomy: Taxonomy {
  typealias State = PropertyTag
}

struct PropertyTag: AnalyticsTag, Hashable {
  var name: String
}
