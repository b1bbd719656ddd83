import AnalyticsHub
import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// PayPal FPTI's `/v1/tracking/events` (PayPal iOS and Android SDKs) and
/// `/v1/tracking/batch/events` (Braintree iOS and Android SDKs) through a real `listen` (TCP):
/// each event the hub's `FPTICall` (`event`, its name, its own tags), the SDK's tags beside it,
/// who sent it in the device model, `{}` answered, fields not read kept with their place, bad
/// input refused per request, and a plan's FPTI catalogue judging the records. Fixtures and their
/// sources: `Tests/Fixtures/fpti-wire/README.md`.
final class FPTIWireTests: XCTestCase {
  private func fixture(_ name: String) throws -> [UInt8] {
    try Array(Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/fpti-wire/\(name)")))
  }

  private func call(_ record: Record) -> CallDescription? { record.outputs.first?.calls.first }

  private func extra(_ record: Record, _ key: String) -> Properties {
    Payload.object(record.outputs.first?.extra[key])
  }

  private func device(_ record: Record) -> Properties { Payload.object(record.context.extra["device"]) }

  /// paypal-ios' one event: its name and own tags the call, the SDK's tags under `context`, the
  /// client id a credential, the app, platform and model the device; `t` (a decimal string of
  /// milliseconds) its time.
  func testAPayPalIOSEventIsItsFPTICall() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/v1/tracking/events", headers: ["Authorization: Basic QVlleGFtcGxlOg=="],
      body: fixture("paypal-ios.json"))
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(reply?.body, "{}")
    let record = try XCTUnwrap(collector.waitForRecords(1).first)
    try await server.shutdown()
    XCTAssertEqual(record.outputs.map(\.provider), ["fpti"])
    XCTAssertEqual(record.kind, .event)
    XCTAssertEqual(record.name, "paypal-web-payments:checkout:started")
    XCTAssertEqual(call(record)?.method, "event")
    XCTAssertEqual(call(record)?.name, "paypal-web-payments:checkout:started")
    XCTAssertEqual(
      call(record)?.parameters,
      ["correlation_id": .null, "order_id": "5O190127TN364715T", "vault_setup_token": .null])
    XCTAssertEqual(record.properties, call(record)?.parameters)
    XCTAssertEqual(record.time.timeIntervalSince1970, 1_764_410_000.123, accuracy: 0.001)
    XCTAssertEqual(record.outputs[0].extra["partner_client_id"], "AYexampleClientID0123456789")
    let context = extra(record, "context")
    XCTAssertEqual(context["c_sdk_ver"], "2.0.1")
    XCTAssertEqual(context["is_simulator"], true)
    XCTAssertEqual(context["t"], "1764410000123.456", "as sent")
    XCTAssertEqual(context.count, 15, "every tag the SDK adds, and t: \(context.keys)")
    XCTAssertEqual(extra(record, "unread"), [:], "every field of the SDK's body is read")
    // PayPal's SDKs send no event type (e): not a defect of theirs, so nothing is reported.
    XCTAssertEqual(record.outputs[0].violations.map(\.rule), [])
    XCTAssertEqual(device(record)["app"], "com.example.podcasts")
    XCTAssertEqual(device(record)["platform"], "iOS")
    XCTAssertEqual(device(record)["model"], "arm64")
  }

  /// paypal-android's event: the same shape, `t` a `Long`'s digits, `button_type` an own tag.
  func testAPayPalAndroidEventIsItsFPTICall() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/v1/tracking/events", body: fixture("paypal-android.json"))
    XCTAssertEqual(reply?.status, 200)
    let record = try XCTUnwrap(collector.waitForRecords(1).first)
    try await server.shutdown()
    XCTAssertEqual(call(record)?.name, "card-payments:approve-order:succeeded")
    XCTAssertEqual(call(record)?.parameters, ["order_id": "5O190127TN364715T", "button_type": "paypal"])
    XCTAssertEqual(record.time.timeIntervalSince1970, 1_764_410_001, accuracy: 0.001)
    XCTAssertEqual(extra(record, "unread"), [:])
    XCTAssertEqual(device(record)["model"], "Pixel 7")
    XCTAssertEqual(device(record)["platform"], "Android")
  }

  /// Braintree's batches: one record per event, each with the batch's session and device; the
  /// batch's tags once, on its first event; the merchant's key a credential; `t` a string (iOS)
  /// or a number (Android).
  func testBraintreeBatchesAreOneRecordPerEvent() async throws {
    let (server, collector) = try await startServer()
    for name in ["braintree-ios.json", "braintree-android.json"] {
      let reply = try httpRequest(port: server.port, path: "/v1/tracking/batch/events", body: fixture(name))
      XCTAssertEqual(reply?.status, 200, name)
      XCTAssertEqual(reply?.body, "{}", name)
    }
    let records = collector.waitForRecords(5)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(\.name),
      [
        "paypal:tokenize:started", "paypal:tokenize:browser-presentation:succeeded",
        "core:api-request-latency",
        "paypal:tokenize:started", "paypal:tokenize:succeeded",
      ])
    XCTAssertTrue(records.allSatisfy { call($0)?.method == "event" })
    XCTAssertEqual(call(records[0])?.parameters, ["is_vault": false, "link_type": "universal"])
    XCTAssertEqual(
      call(records[2])?.parameters,
      [
        "connect_start_time": 1_764_410_003_100, "endpoint": "/v1/paypal_hermes/create_payment_resource",
        "end_time": 1_764_410_003_400, "request_start_time": 1_764_410_003_150,
        "start_time": 1_764_410_003_000,
      ])
    XCTAssertEqual(records[1].time.timeIntervalSince1970, 1_764_410_003, accuracy: 0.001)
    XCTAssertEqual(records[4].time.timeIntervalSince1970, 1_764_410_005, accuracy: 0.001)
    XCTAssertEqual(records.map { $0.context.session?.id }.compactMap { $0 }.count, 5)
    XCTAssertEqual(records[0].context.session?.id, "8F1C2D3E4B5A69788796A5B4C3D2E1F0")
    XCTAssertEqual(records[3].context.session?.id, "A1B2C3D4E5F60718293A4B5C6D7E8F90")
    XCTAssertEqual(device(records[2])["model"], "iPhone15,2")
    XCTAssertEqual(extra(records[0], "batch_params")["merchant_id"], "merchant-7")
    XCTAssertEqual(extra(records[0], "batch_params").count, 20)
    XCTAssertEqual(extra(records[1], "batch_params"), [:], "a batch's tags once, on its first event")
    XCTAssertEqual(extra(records[3], "batch_params").count, 20)
    XCTAssertEqual(records[0].outputs[0].extra["auth_fingerprint"], "fingerprint-0123456789abcdef")
    XCTAssertEqual(records[4].outputs[0].extra["tokenization_key"], "sandbox_example_tokenizationkey")
    XCTAssertEqual(extra(records[0], "context"), ["t": "1764410002000", "tenant_name": "Braintree"])
    XCTAssertEqual(extra(records[4], "context"), ["t": 1_764_410_005_000, "tenant_name": "Braintree"])
    XCTAssertTrue(
      records.allSatisfy { extra($0, "unread").isEmpty }, "\(records.map { extra($0, "unread") })")
  }

  /// Fields Tagscope does not know (of the body, a container, a batch's tags) and an `event_name`
  /// or `t` of another type are kept with their place and reported, never dropped; an event's
  /// `e` and `category` lead its parameters, as in the hub's call, and a wrong `e` is reported.
  func testUnknownFieldsAreKeptWithTheirPlace() async throws {
    let (server, collector) = try await startServer()
    let body = """
      {"beta":1,"events":[{"batch_params":{"session_id":"s-1","x":"y"},"extra":[2],"event_params":[
        {"event_name":"play_podcast","t":"later","podcast_title":"Swift by Sundell","category":"player","e":"cl"},
        {"event_name":{"n":1},"t":1764410000000,"e":"zz"}]}]}
      """
    let reply = try httpRequest(port: server.port, path: "/v1/tracking/batch/events", body: body)
    XCTAssertEqual(reply?.status, 200)
    // No event, but a field Tagscope does not read: a record of its own.
    let empty = #"{"events":{"event_params":[]},"gamma":true}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/tracking/events", body: empty)?.status, 200)
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["play_podcast", "", "request"])
    XCTAssertEqual(
      extra(records[0], "unread"),
      [
        "events[0].event_params[0].t": "later", "beta": 1, "events[0].extra": [2],
        "events[0].batch_params.x": "y",
      ])
    XCTAssertEqual(
      call(records[0])?.parameters.map(\.key), ["e", "category", "podcast_title"], "the hub's envelope first")
    XCTAssertEqual(records[0].outputs[0].violations.map(\.rule), ["sdk.field-not-understood"], "e is cl")
    XCTAssertEqual(extra(records[1], "unread"), ["events[0].event_params[1].event_name": .object(["n": 1])])
    XCTAssertEqual(
      records[1].outputs[0].violations.map(\.rule).sorted(),
      ["fpti.event-name-missing", "fpti.event-type-invalid", "sdk.field-not-understood"])
    XCTAssertEqual(extra(records[2], "unread"), ["gamma": true])
  }

  /// Bad bodies get a clear error each (PayPal REST's error shape), nothing of them is recorded,
  /// and the next request is recorded whole.
  func testBadRequestsAreRefusedOneByOne() async throws {
    let (server, collector) = try await startServer()
    let cases: [(path: String, body: String, error: String)] = [
      ("/v1/tracking/events", #"{"events":{"event_params":{"event_name":"a""#, "Invalid JSON"),
      ("/v1/tracking/events", "[1]", "must be a JSON object"),
      ("/v1/tracking/events", #"{"event_params":{}}"#, "No events"),
      ("/v1/tracking/events", #"{"events":"x"}"#, "events must be an object or an array"),
      (
        "/v1/tracking/events", #"{"events":{"event_params":"x"}}"#, "events.event_params must be an object or"
      ),
      ("/v1/tracking/events", #"{"events":{}}"#, "events has no event_params"),
      ("/v1/tracking/batch/events", #"{"events":[1]}"#, "events[0] is not an object"),
      (
        "/v1/tracking/batch/events", #"{"events":[{"batch_params":[],"event_params":[]}]}"#,
        "batch_params is not"
      ),
      (
        "/v1/tracking/batch/events", #"{"events":[{"event_params":[{"event_name":"a"},7]}]}"#,
        "event_params[1] is"
      ),
    ]
    for item in cases {
      let reply = try httpRequest(port: server.port, path: item.path, body: item.body)
      XCTAssertEqual(reply?.status, 400, item.body)
      XCTAssertTrue(reply?.body.contains(item.error) ?? false, "\(item.body): \(reply?.body ?? "")")
      XCTAssertTrue(reply?.body.contains(#""name":"INVALID_REQUEST""#) ?? false, reply?.body ?? "")
    }
    // Past the registry's 1 MB: refused whole with 413.
    let large =
      #"{"events":{"event_params":{"event_name":"big","pad":""# + String(repeating: "a", count: 1024 * 1024)
      + #""}}}"#
    let refused = try httpRequest(port: server.port, path: "/v1/tracking/events", body: large)
    XCTAssertEqual(refused?.status, 413)
    XCTAssertTrue(refused?.body.contains("over 1 MB") ?? false, refused?.body ?? "")
    let good = #"{"events":{"event_params":{"event_name":"ok","t":"1764410000000"}}}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/v1/tracking/events", body: good)?.status, 200)
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["ok"])
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 1)
    XCTAssertEqual(server.statistics.rejected.values.reduce(0, +), cases.count + 1)
  }

  /// A plan's FPTI catalogue judges the SDKs' events as it judges the hub's calls: a missing
  /// required tag and an event the catalogue does not list are found, with their record.
  func testAPlanJudgesTheWireEvents() async throws {
    let (server, collector) = try await startServer()
    for (path, name) in [
      ("/v1/tracking/events", "paypal-ios.json"), ("/v1/tracking/batch/events", "braintree-android.json"),
    ] {
      XCTAssertEqual(try httpRequest(port: server.port, path: path, body: fixture(name))?.status, 200)
    }
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    let plan = """
      plan: FPTI on the wire
      catalogues:
        fpti:
          calls:
            "paypal-web-payments:checkout:started":
              method: event
              params: {order_id: {type: string, required: true}}
            "paypal:tokenize:started":
              params:
                context_id: {type: string, required: true}
                billing_plan_type: {type: string, enum: [UNSCHEDULED]}
      """
    var validator = PlanValidator(plan: try PlanLoader.load(yaml: plan, file: "fpti.yaml"))
    // The catalogue's findings; the hub's rules (no event type `e`) are reported beside them.
    let violations = records.flatMap { validator.validate($0) }.filter {
      $0.provider == "fpti" && !$0.message.contains("fpti rule")
    }
    XCTAssertEqual(violations.count, 2, violations.map(\.message).joined(separator: "\n"))
    XCTAssertTrue(
      violations.contains { $0.message.contains("billing_plan_type") && $0.message.contains("RECURRING") },
      violations.map(\.message).joined(separator: "\n"))
    XCTAssertTrue(
      violations.contains { $0.message.contains("paypal:tokenize:succeeded") },
      violations.map(\.message).joined(separator: "\n"))
  }
}
