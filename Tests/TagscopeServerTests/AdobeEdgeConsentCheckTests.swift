import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// An Adobe Edge consent withdrawal seen on the wire (`/ee/v1/privacy/set-consent`, `collect.val`
/// `n`) is the device's decision for provider `adobe`: the plan's consent check flags the Edge
/// calls that device sends after it as `consent-withdrawn`, naming the withdrawal, and none
/// before; another device's calls are not judged by it. Before, a wire consent was checked as a
/// call and a wire source without an in-app device was only `consent-unchecked`.
final class AdobeEdgeConsentCheckTests: XCTestCase {
  static let plan = """
    plan: Podcasts
    consent:
      default: granted
      categories:
        analytics: [adobe]
    """

  /// An Edge interact of one `eventType` from the device `ecid`.
  static func interact(_ eventType: String, ecid: String = "ecid-7") -> String {
    #"{"events":[{"xdm":{"_id":""# + eventType + #"","timestamp":"2026-11-29T09:00:01.000Z","eventType":""#
      + eventType + #""}}],"xdm":{"identityMap":{"ECID":[{"id":""# + ecid
      + #"","authenticatedState":"ambiguous","primary":false}]}}}"#
  }

  func testEdgeCallsAfterAnEdgeWithdrawalAreConsentWithdrawnThroughListen() async throws {
    let (server, collector) = try await startServer()
    let requests = [
      ("/ee/v1/interact", Self.interact("before.withdrawal")),
      ("/ee/v1/privacy/set-consent", AdobeEdgeConsentAndV2Tests.consent("n")),
      ("/ee/or2/v1/interact", Self.interact("after.withdrawal")),
      ("/ee/v1/interact", Self.interact("other.device", ecid: "ecid-8")),
      ("/ee/v1/privacy/set-consent", AdobeEdgeConsentAndV2Tests.consent("y")),
      ("/ee/v1/interact", Self.interact("after.grant")),
    ]
    for (index, (path, body)) in requests.enumerated() {
      XCTAssertEqual(try httpRequest(port: server.port, path: path, body: body)?.status, 200, path)
      XCTAssertEqual(collector.waitForRecords(index + 1).count, index + 1)
    }
    let records = collector.waitForRecords(requests.count)
    try await server.shutdown()

    var validator = PlanValidator(plan: try PlanLoader.load(yaml: Self.plan, file: "consent.yaml"))
    var found: [String: [PlanViolation]] = [:]
    for record in records {
      found[record.name, default: []] += validator.validate(record).filter {
        $0.rule == .consentWithdrawn || $0.rule == .consentUnchecked
      }
    }
    XCTAssertEqual(found["before.withdrawal"]?.map(\.rule), [.consentUnchecked], "no device decided yet")
    XCTAssertEqual(found["consent"]?.map(\.rule), [], "a consent record is not a call")
    let withdrawn = try XCTUnwrap(found["after.withdrawal"])
    XCTAssertEqual(withdrawn.map(\.rule), [.consentWithdrawn], "\(withdrawn.map(\.message))")
    XCTAssertEqual(withdrawn.first?.provider, "adobe")
    let consent = try XCTUnwrap(records.first { $0.name == "consent" })
    XCTAssertTrue(
      withdrawn.first?.message.contains("withdrawn by #\(consent.seq) consent") ?? false,
      withdrawn.first?.message ?? "")
    XCTAssertEqual(
      found["other.device"]?.map(\.rule), [.consentUnchecked],
      "another device: not its decision, no in-app one")
    XCTAssertEqual(found["after.grant"]?.map(\.rule), [], "granted again")
  }

  /// With the app's in-app device in the session, the wire source's own Edge withdrawal still
  /// applies to its calls (over the in-app device, which granted everything), and the in-app
  /// device's calls are not judged by it.
  func testAnEdgeWithdrawalAppliesOverTheInAppDevicesConsent() throws {
    var devices = DeviceRegistry(limit: 8)
    var seq: UInt64 = 0
    func wire(_ path: String, _ body: String) throws -> Record {
      let event = try XCTUnwrap(endpointReply(path, body: body)?.events.first)
      let placement = devices.place(event, address: "127.0.0.1")
      seq += 1
      return RecordMaker.record(
        event, seq: seq, source: placement.source, context: placement.context, received: Date())
    }
    func inApp(_ name: String) -> Record {
      seq += 1
      return Record(
        seq: seq, time: Date(), kind: .userAction, name: name, properties: [:], context: RecordContext(),
        outputs: [
          ProviderOutput(provider: "adobe", status: .sent, calls: [CallDescription(method: "trackAction")])
        ],
        source: "QA iPhone")
    }
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: Self.plan, file: "consent.yaml"))
    let records = [
      inApp("play"), try wire("/ee/v1/interact", Self.interact("before")),
      try wire("/ee/v1/privacy/set-consent", AdobeEdgeConsentAndV2Tests.consent("n")),
      try wire("/ee/v1/interact", Self.interact("after")), inApp("pause"),
    ]
    let findings = records.map { record in
      validator.validate(record).filter { $0.rule == .consentWithdrawn || $0.rule == .consentUnchecked }
    }
    XCTAssertEqual(findings.map { $0.map(\.rule) }, [[], [], [], [.consentWithdrawn], []])
    // The withdrawal is the wire source's own, not the in-app device's it joins.
    let message = findings[3].first?.message ?? ""
    XCTAssertTrue(message.contains("withdrawn on the wire by #3 consent"), message)
    XCTAssertFalse(message.contains("in-app device"), message)
  }
}
