import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Braze's `/api/v3/data`, Piano Analytics' `/event` and AT Internet's `/hit.xiti` through a real
/// `listen` (TCP): each event the in-app provider's call (`logCustomEvent`, `sendEvent`…), who
/// sent it in the device model, the vendor's answer, fields not read kept with their place, bad
/// input refused per request. Fixtures and their sources: `Tests/Fixtures/braze-piano-wire/README.md`.
final class BrazePianoWireTests: XCTestCase {
  private func fixture(_ name: String) throws -> [UInt8] {
    try Array(
      Data(contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/braze-piano-wire/\(name)")))
  }

  private func summary(_ record: Record) -> String {
    let call = record.outputs.first?.calls.first
    return "\(record.kind.rawValue) \(record.name) \(call?.method ?? "-") \(call?.name ?? "-")"
  }

  private func device(_ record: Record) -> Properties {
    Payload.object(record.context.extra["device"])
  }

  private func unread(_ record: Record) -> Properties {
    Payload.object(record.outputs.first?.extra["unread"])
  }

  /// The real Web SDK body: the custom event with its properties, the custom attribute, the user,
  /// device and session; `{}` answered; `respond_with` is the request's, not a record.
  func testARealBrazeWebBodyIsItsCustomEventAndAttribute() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/api/v3/data/",
      headers: ["X-Braze-Api-Key: 00000000-0000-4000-8000-000000000000"],
      body: fixture("braze-web-2.5.2.json"))
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(reply?.body, "{}")
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      ["event add_to_cart logCustomEvent add_to_cart", "identify language setCustomAttribute language"])
    let event = records[0]
    XCTAssertEqual(event.outputs.map(\.provider), ["braze"])
    XCTAssertEqual(event.properties["sku"], "59014923")
    XCTAssertEqual(event.properties["user_id"], .int(2_405_091))
    XCTAssertEqual(event.outputs[0].calls[0].parameters, event.properties)
    XCTAssertEqual(event.time.timeIntervalSince1970, 1_625_831_075.239, accuracy: 0.001)
    XCTAssertEqual(event.context.session?.user, "2405091")
    XCTAssertEqual(records[1].outputs[0].calls[0].parameters, ["value": "en"])
    XCTAssertEqual(event.outputs[0].extra["api_key"], "00000000-0000-4000-8000-000000000000")
    XCTAssertEqual(unread(event), [:], "every field of the real body is read")
    // The event as sent but what its call holds, once; the request's own fields on its first record.
    let message = Payload.object(event.outputs[0].extra["message"])
    XCTAssertEqual(message["session_id"], "a0810b1c-3f4f-84fd-7d5b-0bc5c578a30e")
    XCTAssertEqual(message["data"], .object(["n": "add_to_cart"]))
    XCTAssertEqual(event.raw, "")
    XCTAssertEqual(Payload.object(event.outputs[0].extra["request"])["sdk_version"], "2.5.2")
    XCTAssertNil(records[1].outputs[0].extra["request"])
    XCTAssertEqual(device(event)["id"], "6501402c-6f0f-968b-c4f5-919d47ed01d8")
  }

  /// Every event type the Roku SDK builds, as the Swift SDK's calls; attributes one record each,
  /// `null` an unset; the device's model from the `device` object.
  func testEveryBrazeEventTypeIsItsSwiftSDKCall() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/api/v3/data", body: fixture("braze-roku-2.2.0.json"))
    XCTAssertEqual(reply?.status, 200)
    let records = collector.waitForRecords(14)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      [
        "sessionStart session_start sessionStart -",
        "event podcast_downloaded logCustomEvent podcast_downloaded",
        "event premium_month logPurchase premium_month",
        "identify downloads incrementCustomUserAttribute downloads",
        "identify genres addToCustomAttributeArray genres",
        "identify genres removeFromCustomAttributeArray genres",
        "identify home setLocationCustomAttribute home", "identify crm-7 addAlias crm-7",
        "event in_app_message_impression sdkEvent in_app_message_impression",
        "sessionEnd session_end sessionEnd -", "identify push_authorized setCustomAttribute push_authorized",
        "identify favorites_count setCustomAttribute favorites_count",
        "identify old_flag unsetCustomAttribute old_flag", "identify first_name set first_name",
      ])
    let purchase = records[2].outputs[0].calls[0].parameters
    XCTAssertEqual(purchase, ["currency": "EUR", "price": .double(4.99), "quantity": 1, "plan": "monthly"])
    XCTAssertEqual(records[3].outputs[0].calls[0].parameters, ["by": 1])
    XCTAssertEqual(records[9].outputs[0].calls[0].parameters, ["duration": 42])
    XCTAssertEqual(records[10].outputs[0].calls[0].parameters, ["value": true])
    XCTAssertEqual(records[1].context.session?.id, "5d4e3c2b-1a09-4f8e-9d7c-6b5a4f3e2d1c")
    XCTAssertEqual(records[1].context.session?.user, "u-42")
    XCTAssertTrue(records.allSatisfy { unread($0).isEmpty }, "\(records.map(unread))")
    XCTAssertEqual(device(records[1])["model"], "Roku Ultra")
    XCTAssertEqual(device(records[1])["id"], "9b8a7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d")
  }

  /// A type code and fields Tagscope does not know are recorded with their place, never dropped:
  /// the code as an `sdkEvent` with a violation, the fields under `unread`.
  func testUnknownBrazeCodesAndFieldsAreKeptWithTheirPlace() async throws {
    let (server, collector) = try await startServer()
    let body = """
      {"api_key":"k","device_id":"d-1","beta":1,"events":[
        {"name":"zz","data":{"x":1},"time":1764410000,"session_id":"s-1"},
        {"name":"ce","data":{"n":"played","p":{"a":1},"q":2},"time":1764410001,"session_id":"s-1","extra":"e"},
        {"name":"p","data":{"pid":{"id":7},"c":"EUR","p":1,"q":1,"pr":[1]},"time":1764410002}]}
      """
    let reply = try httpRequest(port: server.port, path: "/api/v3/data", body: body)
    XCTAssertEqual(reply?.status, 200)
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      ["event zz sdkEvent zz", "event played logCustomEvent played", "event  logPurchase "])
    XCTAssertEqual(unread(records[2]), ["events[2].data.pid": .object(["id": 7]), "events[2].data.pr": [1]])
    XCTAssertEqual(
      records[0].outputs[0].violations.map(\.rule), ["braze.unknown-event-type", "sdk.field-not-understood"])
    XCTAssertTrue(records[0].outputs[0].violations[0].message.contains("events[0]"))
    XCTAssertEqual(unread(records[0]), ["request.beta": 1])
    XCTAssertEqual(unread(records[1]), ["events[1].extra": "e", "events[1].data.q": 2])
    XCTAssertEqual(records[1].outputs[0].calls[0].parameters, ["a": 1])
  }

  /// Bad requests get a clear error each, and the next request is recorded whole.
  func testBadBrazeRequestsAreRefusedOneByOne() async throws {
    let (server, collector) = try await startServer()
    let cases: [(body: String, error: String)] = [
      ("{\"api_key\":", "Invalid JSON"), ("[1]", "must be a JSON object"),
      (#"{"device_id":"d","events":[]}"#, "No api_key"),
      (#"{"api_key":"k","events":{"name":"ce"}}"#, "events must be an array"),
      (#"{"api_key":"k","events":[{"data":{}}]}"#, "events[0] has no name"),
      (#"{"api_key":"k","events":[1]}"#, "events[0] is not an object"),
      (#"{"api_key":"k","attributes":["a"]}"#, "attributes[0] is not an object"),
    ]
    for item in cases {
      let reply = try httpRequest(port: server.port, path: "/api/v3/data", body: item.body)
      XCTAssertEqual(reply?.status, 400, item.body)
      XCTAssertTrue(reply?.body.contains(item.error) ?? false, "\(item.body): \(reply?.body ?? "")")
    }
    let good =
      #"{"api_key":"k","device_id":"d","events":[{"name":"ce","data":{"n":"ok"},"time":1764410000}]}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/api/v3/data", body: good)?.status, 200)
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["ok"])
    try await server.shutdown()
    XCTAssertEqual(collector.records.count, 1)
    XCTAssertEqual(server.statistics.rejected.values.reduce(0, +), cases.count)
  }

  /// Piano's events: `page.display` a screen named by its page, clicks events; the call's
  /// parameters are the app's properties (forced types undone), the SDK's own kept beside them
  /// and naming the sender.
  func testPianoEventsAreTheirSendEventCallsAndTheSDKPropertiesTheSender() async throws {
    let (server, collector) = try await startServer()
    let reply = try httpRequest(
      port: server.port, path: "/event?s=447850&idclient=v-0f1e", body: fixture("piano-android.json"))
    XCTAssertEqual(reply?.status, 200)
    XCTAssertEqual(reply?.body, "")
    let records = collector.waitForRecords(2)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      ["screen favorites sendEvent page.display", "event click.action sendEvent click.action"])
    XCTAssertEqual(
      records[0].outputs[0].calls[0].parameters, ["page": "favorites", "page_chapter1": "library"])
    XCTAssertEqual(
      records[1].outputs[0].calls[0].parameters,
      [
        "click": "play_podcast", "click_chapter1": "favorites", "podcast_title": "Swift by Sundell",
        "podcast_duration": 1830, "episode": "42",
      ])
    let extra = records[1].outputs[0].extra
    XCTAssertEqual(Payload.object(extra["forced_types"]), ["podcast_duration": "n", "episode": "s"])
    XCTAssertEqual(Payload.object(extra["sdk_properties"])["device_model"], "Pixel 7")
    XCTAssertEqual(extra["s"], "447850")
    XCTAssertEqual(records[0].context.session?.user, "u-42")
    XCTAssertEqual(records[0].context.session?.id, "0c5b7a2e-3d4f-4e6a-9b8c-7d6e5f4a3b2c")
    XCTAssertEqual(records[0].time.timeIntervalSince1970, 1_764_410_000, accuracy: 0.001)
    XCTAssertEqual(
      device(records[0]),
      [
        "id": "v-0f1e", "app": "com.example.podcasts", "platform": "android", "model": "Pixel 7",
        "connection": "127.0.0.1",
      ])
  }

  func testBadPianoRequestsAreRefusedOneByOne() async throws {
    let (server, collector) = try await startServer()
    let cases: [(path: String, body: String, error: String)] = [
      ("/event?idclient=v", #"{"events":[]}"#, "no s="), ("/event?s=1", "{", "Invalid JSON"),
      ("/event?s=1", #"{"event":[]}"#, "an events array"),
      ("/event?s=1", #"{"events":[{"data":{}}]}"#, "no name"),
      ("/event?s=1", #"{"events":[{"name":"x","data":[1]}]}"#, "events[0].data is not an object"),
    ]
    for item in cases {
      let reply = try httpRequest(port: server.port, path: item.path, body: item.body)
      XCTAssertEqual(reply?.status, 400, item.body)
      XCTAssertTrue(reply?.body.contains(item.error) ?? false, "\(item.body): \(reply?.body ?? "")")
    }
    let good = #"{"events":[{"name":"custom.event","data":{"a":1}},{"name":"e2"}],"extra":true}"#
    XCTAssertEqual(try httpRequest(port: server.port, path: "/event?s=1&idclient=v", body: good)?.status, 200)
    // No event, but a field Tagscope does not read: a record of its own, not dropped.
    let empty = #"{"events":[],"beta":1}"#
    XCTAssertEqual(
      try httpRequest(port: server.port, path: "/event?s=1&idclient=v&x=y", body: empty)?.status, 200)
    let records = collector.waitForRecords(3)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      ["event custom.event sendEvent custom.event", "event e2 sendEvent e2", "event request request -"])
    XCTAssertEqual(
      unread(records[0]), ["extra": true], "the request's fields once, with its first event")
    XCTAssertEqual(unread(records[1]), [:])
    XCTAssertEqual(unread(records[2]), ["beta": 1, "query.x": "y"])
  }

  /// AT Internet's own test hit (BuilderTest.java:334): a screen, its `stc` custom objects and
  /// custom parameters as properties; a click hit is Piano's `click.*` event with its chapters;
  /// the answer is a GIF.
  func testATInternetHitsAreThePianoCallsThatReplaceThem() async throws {
    let (server, collector) = try await startServer()
    let stc = #"{"key1":"value1","key2":"value2","key3":"value3","obj":{"subkey":"subvalue"}}"#
    let query =
      "s=552987&p=page--page2&array=" + percent(#"[{"test":"value"}]"#) + "&test=value&stc=" + percent(stc)
    let (status, headers) = try RawClient.exchange(
      server.port, "GET /hit.xiti?\(query) HTTP/1.1\r\nHost: logs.xiti.com\r\nConnection: close\r\n\r\n")
    XCTAssertEqual(status, 200)
    XCTAssertEqual(headers["content-type"], "image/gif")
    let click =
      "s=552987&idclient=v-1&an=42&type=click&click=A&p=library::favorites::play_podcast&apid=com.example"
    XCTAssertEqual(
      try RawClient.exchange(
        server.port, "GET /hit.xiti?\(click) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      )
      .status, 200)
    // A hit type and a touch code Tagscope does not map: recorded by their names, kept under `unread`.
    for other in ["s=1&type=audio&p=player::episode", "s=1&type=click&click=IS&p=search&p=again"] {
      let request = "GET /hit.xiti?\(other) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
      XCTAssertEqual(try RawClient.exchange(server.port, request).status, 200)
    }
    let records = collector.waitForRecords(4)
    try await server.shutdown()
    XCTAssertEqual(
      records.map(summary),
      [
        "screen page--page2 sendEvent page.display", "event click.action sendEvent click.action",
        "event audio sendEvent audio", "event click.IS sendEvent click.IS",
      ])
    XCTAssertEqual(unread(records[2]), ["type": "audio"])
    XCTAssertEqual(unread(records[3]), ["click": "IS", "p[4]": "again"])
    XCTAssertEqual(
      records[0].outputs[0].calls[0].parameters,
      [
        "page": "page--page2", "key1": "value1", "key2": "value2", "key3": "value3",
        "obj": .object(["subkey": "subvalue"]), "array": #"[{"test":"value"}]"#, "test": "value",
      ])
    XCTAssertEqual(
      records[1].outputs[0].calls[0].parameters,
      ["click": "play_podcast", "click_chapter1": "library", "click_chapter2": "favorites"])
    XCTAssertEqual(records[1].context.session?.user, "42")
    XCTAssertEqual(device(records[1])["id"], "v-1")
    XCTAssertEqual(device(records[1])["app"], "com.example")
  }

  private func percent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }
}
