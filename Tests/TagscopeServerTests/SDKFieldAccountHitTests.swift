import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Piano Analytics', AT Internet's and Adobe's decoders account for every field of their requests
/// (issue 44): a field they neither carry nor know as transport is kept under the record's
/// `unread` by its place and reported by one `sdk.field-not-understood` violation.
final class SDKFieldAccountHitTests: XCTestCase {
  // MARK: Piano Analytics and AT Internet

  func testAPianoRequestReportsItsBodysQuerysAndEventsUnknownFieldsOnce() throws {
    let body =
      #"{"events":[{"name":"page.display","data":{"page":"home"},"meta":1},{"name":"e2"}],"extra":true}"#
    let events = try XCTUnwrap(
      endpointReply("/event", body: body, query: [("s", "1"), ("idclient", "v"), ("x", "y")])
    ).events
    XCTAssertEqual(events.map(unread), [["events[0].meta", "extra", "query.x"], []])
    XCTAssertEqual(reported(events[0]), ["3 fields not understood"])
    XCTAssertEqual(reported(events[1]), [], "a request's own fields are reported once")
  }

  func testAPianoRequestWithoutEventsReportsItsUnknownFieldsOnARecordOfItsOwn() throws {
    let events = try XCTUnwrap(
      endpointReply("/event", body: #"{"events":[],"beta":1}"#, query: [("s", "1")])
    ).events
    XCTAssertEqual(events.map(\.name), ["request"])
    XCTAssertEqual(events.map(unread), [["beta"]])
    XCTAssertEqual(reported(events[0]), ["1 field not understood"])
  }

  func testAnATInternetHitReportsWhatItKeepsUnread() throws {
    let hits = [
      "s=1&type=audio&p=player::episode", "s=1&type=click&click=IS&p=a::b::c::d::search&p=again",
      "s=552987&idclient=v-1&an=42&type=click&click=A&p=library::favorites::play_podcast",
    ]
    let events = try hits.map { hit in
      try XCTUnwrap(endpointReply("/hit.xiti", body: "", query: FormDecoding.pairs(hit))).events
    }
    XCTAssertEqual(events.map { $0.map(unread) }, [[["type"]], [["click", "p", "p[4]"]], [[]]])
    XCTAssertEqual(
      events.map { $0.flatMap(reported) }, [["1 field not understood"], ["3 fields not understood"], []])
  }

  // MARK: Adobe

  /// Each variable of a hit is read (the call's, eVars and props), the SDKs' own transport or
  /// reported by its name: the mobile extension's real hits raise nothing.
  func testAnAdobeHitReportsAVariableNeitherReadNorTransport() throws {
    for real in [AdobeWireFixtures.actionHit, AdobeWireFixtures.lifecycleHit] {
      let event = try XCTUnwrap(endpointReply(AdobeWireFixtures.hitPath, body: real)?.events.first)
      XCTAssertEqual(unread(event), [], real)
      XCTAssertEqual(reported(event), [])
    }
    let web =
      "AQB=1&ndh=1&pf=1&t=4%2F10%2F2021&ts=1669845066&mid=1&aamlh=6&ce=UTF-8&pageName=home&g=https%3A%2F%2Fx"
      + "&events=event200&v1=a&c2=b&s=1920x1080&c=24&j=1.6&v=N&k=Y&bw=1280&bh=720&zz9=1&AQE=1"
    let event = try XCTUnwrap(endpointReply(AdobeWireFixtures.hitPath, body: web)?.events.first)
    XCTAssertEqual(unread(event), ["zz9"])
    XCTAssertEqual(reported(event), ["1 field not understood"])
  }

  func testAnEdgeRequestReportsItsAndItsEventsUnknownKeysInsteadOfListingThemAsProblems() throws {
    let body =
      #"{"events":[{"xdm":{"eventType":"e"},"extra":1},{"xdm":{"eventType":"f"}}],"surprise":true,"meta":{}}"#
    let events = try XCTUnwrap(endpointReply("/ee/v1/interact", body: body)).events
    XCTAssertEqual(events.map(unread), [["events[0].extra", "surprise"], []])
    XCTAssertEqual(reported(events[0]), ["2 fields not understood"])
    XCTAssertNil(events[0].annotations["problems"])
    XCTAssertNil(events[0].call.parameters["extra"], "not in the call")
    let v2 = #"{"event":{"xdm":{"eventType":"e"},"odd":2},"other":3}"#
    let single = try XCTUnwrap(endpointReply("/ee/v2/interact", body: v2)).events
    XCTAssertEqual(single.map(unread), [["event.odd", "other"]])
    let consent =
      #"{"consent":[{"standard":"Adobe","version":"2.0","value":{"collect":{"val":"y"}},"odd":1}],"x":1}"#
    let consents = try XCTUnwrap(endpointReply("/ee/v1/privacy/set-consent", body: consent)).events
    XCTAssertEqual(consents.map(unread), [["consent[0].odd", "x"]])
    XCTAssertEqual(reported(consents[0]), ["2 fields not understood"])
  }

  // MARK: mParticle IDSync

  /// The SDKs' own IDSync requests raise nothing; a field they do not send, of the request, its
  /// `client_sdk` or an identity change, is reported by its place and left out of the call.
  func testAnIDSyncRequestReportsTheFieldsTheSDKsDoNotSend() throws {
    for real in EndpointFuzzCorpus.mParticleIdentity {
      let event = try XCTUnwrap(endpointReply("/v1/login", body: real)?.events.first)
      XCTAssertEqual(unread(event), [], real)
    }
    let modify =
      #"{"client_sdk":{"platform":"ios","beta":1},"request_id":"r","consent":{},"#
      + #""identity_changes":[{"identity_type":"email","old_value":null,"new_value":"b@x.org","when":1}]}"#
    let event = try XCTUnwrap(endpointReply("/v1/6008681217290486000/modify", body: modify)?.events.first)
    XCTAssertEqual(unread(event), ["consent", "identity_changes[0].when", "client_sdk.beta"])
    XCTAssertEqual(reported(event), ["3 fields not understood"])
    XCTAssertNil(event.call.parameters["consent"], "not in the call")
    XCTAssertEqual(event.properties["email"], "b@x.org")
  }

  // MARK: Helpers

  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }
  private func reported(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.reported(event) }
}
