import AnalyticsHub
import AnalyticsHubTesting
import PodcastDemo
import XCTest

final class SessionTests: XCTestCase {
  func testUnauthenticatedThenAuthenticatedSessions() throws {
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    hub.startSession(properties: ["voiceOver": true])
    hub.flush()
    XCTAssertEqual(hub.context.session?.state, .unauthenticated)
    XCTAssertEqual(hub.context.session?.id, "s-1")

    let user = AnalyticsUser(id: "u-42", traits: ["plan": "premium"])
    hub.startSession(user: user, properties: ["voiceOver": false])
    hub.flush()
    XCTAssertEqual(recorder.dispatches.map(\.kind), [.sessionStart, .sessionEnd, .sessionStart])
    XCTAssertEqual(recorder.dispatches[1].context.session, nil, "the old session ended")
    XCTAssertEqual(hub.context.session?.state, .authenticated)
    XCTAssertEqual(hub.context.session?.user, user)
    XCTAssertEqual(recorder.last?.context.session?.id, "s-2")
    XCTAssertEqual(tracker.calls, [.userProperty("voiceOver", "true"), .userProperty("voiceOver", "false")])
  }

  func testUpdateMergesPropertiesIntoTheActiveSession() throws {
    let (hub, recorder) = try makeHub([])
    hub.startSession(properties: ["voiceOver": true, "dynamicType": "large"])
    hub.updateSession(properties: ["voiceOver": false, "reduceMotion": true])
    hub.flush()
    XCTAssertEqual(
      hub.context.session?.properties, ["voiceOver": false, "dynamicType": "large", "reduceMotion": true])
    XCTAssertEqual(recorder.last?.kind, .sessionUpdate)
    XCTAssertEqual(recorder.last?.properties["reduceMotion"], true)
  }

  func testIdentifyAndResetAssociateAndDisassociateTheUser() throws {
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    hub.startSession()
    hub.identify(AnalyticsUser(id: "u-7"))
    hub.flush()
    XCTAssertEqual(hub.context.session?.state, .authenticated)
    XCTAssertEqual(recorder.last?.context.session?.user?.id, "u-7")
    hub.reset()
    hub.flush()
    XCTAssertEqual(hub.context.session?.state, .unauthenticated)
    XCTAssertNil(hub.context.user)
    XCTAssertEqual(tracker.calls, [.userID("u-7"), .userID(nil)])
  }

  func testIdentifiedUserCarriesIntoTheNextSession() throws {
    let (hub, _) = try makeHub([])
    hub.identify(AnalyticsUser(id: "u-9"))
    hub.startSession()
    hub.flush()
    XCTAssertEqual(hub.context.session?.user?.id, "u-9")
  }

  func testEndingOrUpdatingWithoutSessionIsAReportedNoOp() throws {
    let tracker = TestAdapter<TrackerCall>()
    let (hub, recorder) = try makeHub([Provider(id: "t", adapter: tracker, mapping: trackerMapping)])
    hub.endSession()
    hub.updateSession(properties: ["voiceOver": true])
    hub.flush()
    XCTAssertEqual(recorder.dispatches.map(\.kind), [.sessionEnd, .sessionUpdate])
    XCTAssertEqual(recorder.dispatches.flatMap(\.issues).map(\.code), [.noActiveSession, .noActiveSession])
    XCTAssertEqual(recorder.dispatches.flatMap(\.outcomes).count, 0, "no provider received anything")
    XCTAssertTrue(tracker.calls.isEmpty)
    XCTAssertNil(hub.context.session)
  }

  func testEndSessionDispatchesTheEndedSession() throws {
    let (hub, recorder) = try makeHub([])
    hub.startSession(properties: ["voiceOver": true])
    hub.endSession()
    hub.flush()
    XCTAssertEqual(recorder.last?.kind, .sessionEnd)
    XCTAssertEqual(recorder.last?.properties, ["voiceOver": true])
    XCTAssertNil(recorder.last?.context.session)
  }
}
