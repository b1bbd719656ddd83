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

/// Issue 47's consent on the wire with the official SDKs other than Segment's: Amplitude's and
/// Mixpanel's Python SDKs (child processes, batching and sending on their own) send to a real
/// `listen` whose live session checks a plan filing both under `analytics`, while the app's hub,
/// attached to the same `listen`, records the withdrawal of `analytics`. Each SDK's event after it
/// is `consent-withdrawn` for that SDK's provider, none before.
final class ConsentWireOtherSDKTests: XCTestCase {
  static let plan = """
    plan: Podcasts
    consent:
      default: granted
      categories:
        analytics: [firebase, amplitude, mixpanel]
    """

  func testAmplitudesAndMixpanelsEventsAfterTheWithdrawalAreFlagged() async throws {
    let plan = try PlanLoader.load(yaml: Self.plan, file: "consent.yaml")
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-sdks-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let (session, checked) = try checkingSession(plan: plan, url: url)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let sdks = try ["amplitude", "mixpanel"].map { ($0, try SDKChild(sdk: $0, port: server.port)) }
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(including: [Firebase.id]))
    let inspector = hub.attachDebugger(port: UInt16(server.port), app: "Podcasts", device: "QA")
    let wasChecked = { (name: String) in
      eventually { checked.all.contains { $0.record.name == name } }
    }

    hub.send(userAction: .playPodcast(Podcast.catalogue[0]))
    XCTAssertTrue(wasChecked("playPodcast"))
    for (name, sdk) in sdks {
      try sdk.track("Before \(name)")
      XCTAssertTrue(wasChecked("Before \(name)"), sdk.output)
    }
    hub.setConsent(false, for: .category(.analytics))
    XCTAssertTrue(wasChecked("consent"))
    for (name, sdk) in sdks {
      try sdk.track("After \(name)")
      XCTAssertTrue(wasChecked("After \(name)"), sdk.output)
    }
    for (_, sdk) in sdks {
      sdk.finishInput()
      XCTAssertEqual(sdk.waitForExit(), 0, sdk.output)
    }
    inspector.close()
    try await server.shutdown()
    session.close()

    let records = checked.all
    let consentRecord = try XCTUnwrap(records.first { $0.record.kind == .consent }?.record)
    let inApp = try XCTUnwrap(consentRecord.source)
    let isConsent = isConsentFinding
    let flagged = records.filter { $0.violations.contains(where: isConsent) }
    let live = flagged.flatMap { $0.violations.filter(isConsent) }
    XCTAssertEqual(
      flagged.map(\.record.name).sorted(), ["After amplitude", "After mixpanel"], "\(live.map(\.message))")
    XCTAssertEqual(Set(live.map(\.rule)), [.consentWithdrawn])
    for (name, _) in sdks {
      let finding = try XCTUnwrap(flagged.first { $0.record.name == "After \(name)" })
      XCTAssertTrue(finding.record.isFromSDK && finding.record.source != inApp, "\(finding.record)")
      XCTAssertEqual(finding.violations.filter(isConsent).map(\.provider), [name])
      let message = finding.violations.first(where: isConsent)?.message ?? ""
      XCTAssertTrue(
        message.contains(
          "on the wire after consent for analytics was withdrawn on in-app device \(inApp) by "
            + "#\(consentRecord.seq) consent"), message)
    }
  }
}
