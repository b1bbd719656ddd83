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

/// Issue 47's consent on the wire, through the proxy: Segment's official Python SDK sends to its
/// production host, api.segment.io, through `tagscope proxy` (HTTPS_PROXY, the proxy's CA trusted;
/// the test-only resolve override points the host at a local TLS vendor, as in
/// ``ProxySDKTests``), while the app's hub, attached to the same `listen`, records a consent
/// withdrawal. Each SDK call after it is `consent-withdrawn`, none before, and every call still
/// reaches the vendor (the check reports, it never blocks).
final class ConsentProxyTests: XCTestCase {
  func testEverySDKCallThroughTheProxyAfterTheHubsWithdrawalIsFlagged() async throws {
    let plan = try PlanLoader.load(yaml: ConsentWireTests.plan, file: "consent.yaml")
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "consent-proxy-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: directory) }
    let vendor = try await VendorServer.start(
      hosts: ["api.segment.io"], directory: directory.appendingPathComponent("vendor"))
    let (session, checked) = try checkingSession(
      plan: plan, url: directory.appendingPathComponent("consent.jsonl"))
    let server = try await ListenServer.start(
      configuration: vendor.proxyConfiguration(
        authorityDirectory: directory.appendingPathComponent("proxy-ca"), forward: true),
      ingest: session)
    let sdk = try SDKChild(
      proxyPort: server.proxyPort ?? 0, caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(including: [Firebase.id, Segment.id]))
    let inspector = hub.attachDebugger(port: UInt16(server.port), app: "Podcasts", device: "QA")
    let wasChecked = { (name: String) in
      eventually { checked.all.contains { $0.record.name == name } }
    }

    hub.send(userAction: .playPodcast(Podcast.catalogue[0]))
    XCTAssertTrue(wasChecked("playPodcast"))
    for name in ["Before Withdrawal 1", "Before Withdrawal 2"] {
      try sdk.track(name)
      XCTAssertTrue(wasChecked(name), sdk.output + server.statistics.summary)
    }
    hub.setConsent(false, for: .category(.analytics))
    XCTAssertTrue(wasChecked("consent"))
    for name in ["After Withdrawal 1", "After Withdrawal 2"] {
      try sdk.track(name)
      XCTAssertTrue(wasChecked(name), sdk.output + server.statistics.summary)
    }
    sdk.finishInput()
    XCTAssertEqual(sdk.waitForExit(), 0, sdk.output)
    inspector.close()
    try await server.shutdown()
    session.close()
    await vendor.shutdown()

    let records = checked.all
    let consentRecord = try XCTUnwrap(records.first { $0.record.kind == .consent }?.record)
    let isConsent = isConsentFinding
    let flagged = records.filter { $0.violations.contains(where: isConsent) }
    XCTAssertEqual(
      flagged.map(\.record.name), ["After Withdrawal 1", "After Withdrawal 2"],
      "\(flagged.flatMap(\.violations).map(\.message))")
    let violations = flagged.flatMap { $0.violations.filter(isConsent) }
    XCTAssertEqual(Set(violations.map(\.rule)), [.consentWithdrawn])
    XCTAssertEqual(Set(violations.compactMap(\.provider)), ["segment"])
    XCTAssertTrue(flagged.allSatisfy { $0.record.isFromSDK && $0.record.source != consentRecord.source })
    XCTAssertTrue(
      violations.allSatisfy {
        $0.message.contains("after consent for analytics was withdrawn on in-app device")
      },
      "\(violations.map(\.message))")
    let sent = vendor.requests.filter { $0.host == "api.segment.io" }.map {
      String(decoding: $0.body, as: UTF8.self)
    }
    for name in ["Before Withdrawal 1", "After Withdrawal 2"] {
      XCTAssertTrue(sent.contains { $0.contains(name) }, "\(name) reached the vendor: \(sent)")
    }
  }
}
