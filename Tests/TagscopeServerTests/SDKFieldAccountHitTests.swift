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

  // MARK: Helpers

  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }
  private func reported(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.reported(event) }
}
