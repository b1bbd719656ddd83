import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TaggingPlan
import TaggingPlanReports
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 47's consent on the wire: Segment's official Python SDK (a child process, its queue and
/// batches its own) sends track calls to a real `listen` whose live session checks a plan with a
/// `consent:` key, while the app's hub, attached to the same `listen`, records a consent
/// withdrawal. Each SDK call after the withdrawal is `consent-withdrawn` (the hub never saw it: the
/// SDK sent it on its own), none before; `validate` of the recording says the same.
final class ConsentWireTests: XCTestCase {
  static let plan = """
    plan: Podcasts
    consent:
      default: granted
      categories:
        analytics: [firebase, segment]
    """

  func testEverySDKCallAfterTheHubsWithdrawalIsFlaggedLiveAndByValidate() async throws {
    let plan = try PlanLoader.load(yaml: Self.plan, file: "consent.yaml")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let (session, checked) = try checkingSession(plan: plan, url: url)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let sdk = try SDKChild(port: server.port)
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(including: [Firebase.id, Segment.id]))
    let inspector = hub.attachDebugger(port: UInt16(server.port), app: "Podcasts", device: "QA")
    let wasChecked = { (name: String) in
      eventually { checked.all.contains { $0.record.name == name } }
    }

    hub.send(userAction: .playPodcast(Podcast.catalogue[0]))
    XCTAssertTrue(wasChecked("playPodcast"), sdk.output)
    for name in ["Before Withdrawal 1", "Before Withdrawal 2"] {
      try sdk.track(name)
      XCTAssertTrue(wasChecked(name), sdk.output)
    }
    hub.setConsent(false, for: .category(.analytics))
    XCTAssertTrue(wasChecked("consent"))
    hub.send(userAction: .pausePodcast(Podcast.catalogue[0]))
    XCTAssertTrue(wasChecked("pausePodcast"))
    for name in ["After Withdrawal 1", "After Withdrawal 2"] {
      try sdk.track(name)
      XCTAssertTrue(wasChecked(name), sdk.output)
    }
    sdk.finishInput()
    XCTAssertEqual(sdk.waitForExit(), 0, sdk.output)
    inspector.close()
    try await server.shutdown()
    session.close()

    let records = checked.all
    let consentRecord = try XCTUnwrap(records.first { $0.record.kind == .consent }?.record)
    let inApp = try XCTUnwrap(consentRecord.source)
    let isConsent = isConsentFinding
    let live = records.flatMap { $0.violations.filter(isConsent) }
    let flagged = records.filter { $0.violations.contains(where: isConsent) }.map(\.record)
    XCTAssertEqual(
      flagged.map(\.name), ["After Withdrawal 1", "After Withdrawal 2"], "\(live.map(\.message))")
    XCTAssertEqual(Set(live.map(\.rule)), [.consentWithdrawn])
    XCTAssertEqual(Set(live.compactMap(\.provider)), ["segment"])
    XCTAssertTrue(flagged.allSatisfy { $0.isFromSDK && $0.source != inApp })
    XCTAssertEqual(
      live.first?.message,
      "After Withdrawal 1: segment got track After Withdrawal 1 on the wire after consent for analytics was "
        + "withdrawn on in-app device \(inApp) by #\(consentRecord.seq) consent at "
        + "\(JourneyRecord(seq: 0, name: "", time: consentRecord.timeMilliseconds).label.dropFirst(7)) (plan line 5)"
    )

    // `validate` over the recording finds the same.
    let outcome = ValidateRunner.run(plan: plan, recordings: [url.path], format: .json, failOn: .error)
    let report = try XCTUnwrap(outcome.report, outcome.diagnostics)
    let offline = report.violations.filter(isConsent)
    XCTAssertEqual(offline.map(\.message), live.map(\.message))
    XCTAssertEqual(offline.map(\.seq), live.map(\.seq))
  }
}
