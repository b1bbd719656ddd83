import AnalyticsHub
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Each SDK's real payload shape (``SDKDeviceFixtures``) into one real server: every device is its
/// own source, named by its app and device, and its event after a screen call carries that screen,
/// its session and its user.
final class SDKDeviceTests: XCTestCase {
  func testEachSDKsDeviceIsItsOwnSourceWithItsScreenAndSession() async throws {
    let (server, collector) = try await startServer()
    for fixture in SDKDeviceFixtures.all {
      let before = collector.records.count
      for request in fixture.requests {
        let reply = try httpRequest(
          port: server.port, method: request.method, path: request.path,
          contentType: request.method == "GET" ? nil : "application/json", body: request.body)
        XCTAssertTrue((200..<300).contains(reply?.status ?? 0), "\(fixture.name): \(reply?.body ?? "")")
      }
      let records = Array(collector.records.dropFirst(before))
      XCTAssertGreaterThanOrEqual(records.count, 2, fixture.name)
      XCTAssertEqual(Set(records.map(\.source)), [fixture.source], fixture.name)
      guard let last = records.last else { continue }
      XCTAssertNotEqual(last.kind, .screen, fixture.name)
      XCTAssertEqual(last.context.screen, fixture.screen, fixture.name)
      XCTAssertEqual(last.context.history.last, fixture.screen, fixture.name)
      XCTAssertEqual(last.context.session?.id, fixture.session, fixture.name)
      XCTAssertEqual(last.context.session?.user, fixture.user, fixture.name)
      XCTAssertEqual(
        last.context.session?.state, fixture.user == nil ? "unauthenticated" : "authenticated", fixture.name)
      XCTAssertEqual(
        last.context.extra["inferred"],
        .array(
          ["screen", "history", "session"]
            + (fixture.user == nil && last.context.session?.extra["anonymousId"] != nil ? ["anonymous"] : [])),
        fixture.name)
      XCTAssertEqual(
        Payload.object(last.context.extra["device"])["connection"], "127.0.0.1", fixture.name)
    }
    try await server.shutdown()
    let announced = collector.events.compactMap { event -> String? in
      guard case .sourceConnected(let source, let header) = event else { return nil }
      XCTAssertEqual(header.device, "127.0.0.1", "the connection stays known: \(source)")
      return source
    }
    XCTAssertEqual(announced, SDKDeviceFixtures.all.map(\.source), "each device announced once")
  }

  /// Identify traits are the user's properties; an alias (PostHog's `$anon_distinct_id`) keeps
  /// the device; an anonymous visitor is named as such, not as a user.
  func testIdentityFollowsIdentifyAliasAndAnonymousCalls() async throws {
    let (server, collector) = try await startServer()
    for fixture in [
      SDKDeviceFixtures.postHogIOS, SDKDeviceFixtures.segmentAndroid, SDKDeviceFixtures.segmentIOS,
    ] {
      for request in fixture.requests {
        _ = try httpRequest(port: server.port, path: request.path, body: request.body)
      }
    }
    try await server.shutdown()
    let records = collector.records
    let postHog = records.filter { $0.source == SDKDeviceFixtures.postHogIOS.source }
    XCTAssertEqual(postHog.map(\.name), ["Bravo Cart", "identify", "Add To Cart"])
    XCTAssertEqual(
      postHog.first?.context.session?.extra["anonymousId"], "0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b")
    XCTAssertEqual(postHog.last?.context.session?.properties, ["plan": "pro"])
    let android = records.filter { $0.source == SDKDeviceFixtures.segmentAndroid.source }
    XCTAssertEqual(android.last?.context.session?.properties, ["plan": "pro"])
    let iOS = records.filter { $0.source == SDKDeviceFixtures.segmentIOS.source }
    XCTAssertEqual(iOS.last?.context.session?.extra["anonymousId"], "b0e1c2d3-a4b5-4c6d-8e7f-8091a2b3c4d5")
    XCTAssertNil(iOS.last?.context.session?.user)
  }
}
