import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 47's consent on the wire for an SDK's automatic events: a real Android upload to
/// `app-measurement.com/a` (`first_open`, `session_start`… the SDK sends on its own, which the hub
/// never sees) reaches a real `listen` whose plan files Firebase under `analytics`. Posted before
/// the app's hub withdraws `analytics`, no call is flagged; posted after, every Firebase call of
/// it is `consent-withdrawn`: the SDK's own event and user properties.
final class ConsentFirebaseUploadTests: XCTestCase {
  static let plan = """
    plan: Podcasts
    consent:
      default: granted
      categories:
        analytics: [firebase]
    """

  func testTheSDKsAutomaticEventsAfterTheWithdrawalAreFlagged() async throws {
    let plan = try PlanLoader.load(yaml: Self.plan, file: "consent.yaml")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-firebase-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let (session, checked) = try checkingSession(plan: plan, url: url)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(including: [Firebase.id]))
    let inspector = hub.attachDebugger(port: UInt16(server.port), app: "Podcasts", device: "QA")
    let upload = try FirebaseUploadFixtureTests.fixture("android-2024.pb.gz")
    let wireRecords = { checked.all.filter { $0.record.isFromSDK } }
    let post = {
      let reply = try httpRequest(
        port: server.port, path: "/a", contentType: "application/x-www-form-urlencoded",
        headers: ["Content-Encoding: gzip"], body: upload)
      XCTAssertEqual(reply?.status, 204, reply?.body ?? "")
    }

    hub.send(userAction: .playPodcast(Podcast.catalogue[0]))
    XCTAssertTrue(eventually { checked.all.contains { $0.record.name == "playPodcast" } })
    try post()
    XCTAssertTrue(eventually { wireRecords().count == 5 }, "\(wireRecords().count)")
    hub.setConsent(false, for: .category(.analytics))
    XCTAssertTrue(eventually { checked.all.contains { $0.record.kind == .consent } })
    try post()
    XCTAssertTrue(eventually { wireRecords().count == 10 }, "\(wireRecords().count)")
    inspector.close()
    try await server.shutdown()
    session.close()

    let isConsent = isConsentFinding
    let wire = wireRecords()
    let before = wire.prefix(5)
    let after = wire.dropFirst(5)
    XCTAssertEqual(before.filter { $0.violations.contains(where: isConsent) }.map(\.record.name), [])
    XCTAssertEqual(
      after.filter { !$0.violations.contains { $0.rule == .consentWithdrawn && $0.provider == "firebase" } }
        .map(\.record.name), [])
    // The SDK's own event and user properties (`_o: auto`), none of them the app's.
    XCTAssertEqual(
      after.map { "\($0.record.outputs.first?.calls.first?.method ?? "-") \($0.record.name)" },
      [
        "automaticEvent first_open", "automaticUserProperty first_open_time",
        "automaticUserProperty first_open_after_install", "automaticUserProperty lifetime_user_engagement",
        "automaticUserProperty non_personalized_ads",
      ])
  }
}
