import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The podcast demo's in-app FPTI calls, and the same calls sent as PayPal's SDKs send FPTI events
/// (paypal-ios' one event a request, braintree_ios' batches; `Tests/Fixtures/fpti-wire`) through a
/// real `listen`, agree record by record: the same call (method, name, parameters with `e` and
/// `category` first), the same time to the millisecond and the same rule violations; one plan's
/// FPTI catalogue finds the same violations in both.
final class FPTIAgreementTests: XCTestCase {
  /// The tags paypal-ios adds to each event (`AnalyticsEventData.swift`).
  private static let payPalIOSContext: Properties = [
    "app_id": "com.example.podcasts", "app_name": "Podcasts",
    "partner_client_id": "AYexampleClientID0123456789",
    "c_sdk_ver": "2.0.1", "client_os": "iOS 18.1", "comp": "ppcpclientsdk", "device_manufacturer": "Apple",
    "merchant_sdk_env": "live", "event_source": "mobile-native",
    "ios_package_manager": "Swift Package Manager",
    "is_simulator": true, "mapv": "42", "mobile_device_model": "arm64", "platform": "iOS",
    "tenant_name": "PayPal",
  ]

  /// The `batch_params` braintree_ios adds to each batch (`FPTIBatchData.Metadata`).
  private static let braintreeBatch: Properties = [
    "app_id": "com.example.podcasts", "app_name": "Podcasts", "tokenization_key": "sandbox_example_key",
    "c_sdk_ver": "7.9.0", "client_os": "iOS 18.1", "comp": "braintreeclientsdk",
    "device_manufacturer": "Apple",
    "mobile_device_model": "iPhone15,2", "event_source": "mobile-native", "merchant_sdk_env": "production",
    "ios_package_manager": "Swift Package Manager", "paypal_installed": false, "product_name": "BT_DCC",
    "api_integration_type": "custom", "is_simulator": false, "mapv": "42", "merchant_id": "merchant-7",
    "platform": "iOS", "session_id": "8F1C2D3E4B5A69788796A5B4C3D2E1F0", "space_key": "SKDUYK",
    "venmo_installed": false,
  ]

  /// One FPTI call as the two sides are compared.
  private struct Call: Equatable, CustomStringConvertible {
    let call: CallDescription
    let milliseconds: Int64
    let rules: [String]

    var description: String {
      "\(call.method) \(call.name ?? "-") \(JSONText.string(call.parameters)) at \(milliseconds) \(rules)"
    }
  }

  private func demoRecords(count: Int) throws -> [Record] {
    let collected = AgreementRecords()
    let observer = ClosureObserver { collected.append(Record(dispatch: $0)) }
    let clock = ManualClock(start: DemoHub.seededEpoch)
    let hub = try DemoHub.make(providers: PodcastMappings.providers(), clock: clock, seed: 5)
    HeadlessRun.run(hub: hub, clock: clock, seed: 5, count: count, rate: nil, observers: [observer])
    return collected.records
  }

  private static func milliseconds(_ date: Date) -> Int64 {
    Int64((date.timeIntervalSince1970 * 1000).rounded())
  }

  /// The demo's FPTI calls, each with its record's time and the rules it breaks.
  private func inAppCalls(_ records: [Record]) -> [Call] {
    records.flatMap { record in
      record.outputs.filter { $0.provider == "fpti" && $0.status == .sent }.flatMap { output in
        output.calls.enumerated().map { index, call in
          let rules = output.violations.filter { ($0.callIndex ?? 0) == index }.map(\.rule).sorted()
          return Call(call: call, milliseconds: Self.milliseconds(record.time), rules: rules)
        }
      }
    }
  }

  /// `call` as an SDK's `event_params`: its name, `t`, and its parameters as the event's tags.
  private static func eventParams(_ call: Call, context: Properties) -> PropertyValue {
    var event: Properties = [
      "event_name": .string(call.call.name ?? ""), "t": .string("\(call.milliseconds)"),
    ]
    event.merge(call.call.parameters.map { ($0.key, $0.value) })
    event.merge(context.map { ($0.key, $0.value) })
    return .object(event)
  }

  func testTheDemosFPTICallsOnTheWireAgreeWithTheHubs() async throws {
    let records = try demoRecords(count: 600)
    let inApp = inAppCalls(records)
    XCTAssertGreaterThan(inApp.count, 100)
    XCTAssertEqual(Set(inApp.compactMap { $0.call.parameters["e"]?.stringValue }), ["cl", "im", "rd", "ac"])

    let (server, collector) = try await startServer()
    // The first 40 as paypal-ios sends them, one a request; the rest in braintree_ios' batches of 50.
    let singles = inApp.prefix(40)
    for call in singles {
      let body = JSONText.string([
        "events": .object(["event_params": Self.eventParams(call, context: Self.payPalIOSContext)])
      ])
      let reply = try httpRequest(port: server.port, path: "/v1/tracking/events", body: body)
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    }
    let rest = Array(inApp.dropFirst(singles.count))
    for start in stride(from: 0, to: rest.count, by: 50) {
      let events = rest[start..<min(start + 50, rest.count)].map {
        Self.eventParams($0, context: ["tenant_name": "Braintree"])
      }
      let container: Properties = [
        "batch_params": .object(Self.braintreeBatch), "event_params": .array(events),
      ]
      let body = JSONText.string(["events": .array([.object(container)])])
      let reply = try httpRequest(port: server.port, path: "/v1/tracking/batch/events", body: body)
      XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    }
    let wireRecords = collector.waitForRecords(inApp.count)
    try await server.shutdown()
    let wire = wireRecords.compactMap { record -> Call? in
      guard let output = record.outputs.first, let call = output.calls.first else { return nil }
      let rules = output.violations.map(\.rule).sorted()
      return Call(call: call, milliseconds: Self.milliseconds(record.time), rules: rules)
    }
    XCTAssertEqual(wire.count, inApp.count)
    for (hub, sent) in zip(inApp, wire) where hub != sent {
      XCTFail("in-app \(hub)\non the wire \(sent)")
      break
    }
    XCTAssertTrue(wireRecords.allSatisfy { Payload.object($0.outputs.first?.extra["unread"]).isEmpty })

    // One plan's FPTI catalogue judges both alike: the same violations, call by call.
    let judged = (try judgements(records), try judgements(wireRecords))
    XCTAssertFalse(judged.0.isEmpty, "the plan flags some of the demo's calls")
    XCTAssertEqual(judged.0, judged.1)
  }

  /// A plan of FPTI calls, strict enough to flag some of the demo's.
  private static let plan = """
    plan: FPTI agreement
    catalogues:
      fpti:
        unplanned: allowed
        calls:
          play_podcast:
            method: event
            params:
              e: {type: string, enum: [ac]}
              podcast_title: {type: string, required: true, maxLength: 12}
          show_podcasts: {params: {category: {type: string, enum: [library]}}}
    """

  /// The FPTI violations the plan finds in `records`, each without the record's place, sorted.
  private func judgements(_ records: [Record]) throws -> [String] {
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: Self.plan, file: "agreement.yaml"))
    return records.flatMap { validator.validate($0) }.filter { $0.provider == "fpti" }.map { violation in
      let message = violation.message
      let said = message.range(of: ": ").map { String(message[$0.upperBound...]) } ?? message
      return "\(violation.rule.rawValue) \(said)"
    }.sorted()
  }
}

/// Records a hub's observer collects, thread-safely.
private final class AgreementRecords: @unchecked Sendable {
  private let lock = NSLock()
  private var stored: [Record] = []

  func append(_ record: Record) { lock.withLock { stored.append(record) } }

  var records: [Record] { lock.withLock { stored } }
}
