import AnalyticsHub
import Foundation
import XCTest

@testable import TagscopeServer

/// mParticle's mobile batches account for each message's keys and their header's app, device and
/// identity keys; Mixpanel's and PostHog's requests for their query and form fields (issue 44): a
/// field neither carried nor known as the vendor's transport is kept under the record's `unread`
/// by its place and reported by one `sdk.field-not-understood` violation.
final class SDKFieldAccountMobileTests: XCTestCase {
  // MARK: mParticle's iOS and Android SDKs

  func testAnMParticleMobileBatchReportsAMessagesAndItsDevicesUnknownKeysByPlace() throws {
    let body =
      #"{"dt":"h","id":"b","ct":1764112800000,"a":"k","mpid":1,"di":{"dp":"iOS","dosv":"18.2","qq":1},"#
      + #""msgs":[{"dt":"e","ct":1764112798000,"n":"A","et":"Other","mt":false,"zz":1},"#
      + #"{"dt":"v","ct":1764112799000,"n":"Home","el":0,"ww":{"x":1}}]}"#
    let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: body)).events
    XCTAssertEqual(events.map(unread), [["msgs[0].zz", "di.qq"], ["msgs[1].ww"]])
    XCTAssertEqual(events.map(reported), [["2 fields not understood"], ["1 field not understood"]])
  }

  /// The iOS SDK's own recorded batches (``MParticleNativeSeeds``) raise nothing: each key is
  /// carried or mParticle's transport.
  func testTheIOSSDKsRecordedBatchesRaiseNothing() throws {
    for seed in MParticleNativeSeeds.iOS {
      let events = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: seed)).events
      XCTAssertFalse(events.isEmpty)
      XCTAssertEqual(events.flatMap(unread), [], String(seed.prefix(120)))
    }
  }

  /// A mobile message's keys are carried under the Events API's names: a purchase's product
  /// action and products, a user identity change's identities.
  func testAnMParticleMobileMessageIsCarriedInTheEventsAPIsNames() throws {
    let purchase = try XCTUnwrap(
      endpointReply("/v2/us1-abc/events", body: MParticleNativeSeeds.iOS[3])?.events.first)
    let data = Payload.object(purchase.call.parameters["data"])
    let action = Payload.object(data["product_action"])
    XCTAssertEqual(action["action"], "purchase")
    XCTAssertEqual(action["transaction_id"], "zyx098")
    XCTAssertEqual(action["total_amount"], "12.09")
    let product = Payload.object(Payload.array(action["products"])?.first)
    XCTAssertEqual(product["name"], "Awesome Book")
    XCTAssertEqual(product["custom_attributes"], .object(["custom key": "custom value"]))
    XCTAssertEqual(data["screen_name"], "Timeless Books")
    let launch = try XCTUnwrap(endpointReply("/v2/us1-abc/events", body: MParticleNativeSeeds.iOS[0])).events
    let change = try XCTUnwrap(launch.first { $0.call.parameters["event_type"] == "user_identity_change" })
    XCTAssertEqual(
      Payload.object(Payload.object(change.call.parameters["data"])["new"]),
      [
        "timestamp_unixtime_ms": .int(1_764_112_700_000), "identity": "123456", "identity_type": "customerid",
        "created_this_batch": true,
      ])
  }

  // MARK: Mixpanel and PostHog requests

  func testAMixpanelRequestReportsItsUnknownQueryAndFormFields() throws {
    let reply = try XCTUnwrap(
      endpointReply(
        "/track", body: "data=%7B%22event%22%3A%22Play%22%2C%22properties%22%3A%7B%7D%7D&verbose=1&zz=1",
        query: [("ip", "1"), ("_", "1764112800000"), ("foo", "2")],
        contentType: "application/x-www-form-urlencoded"))
    XCTAssertEqual(reply.status.code, 200)
    XCTAssertEqual(reply.events.map(unread), [["foo", "zz"]])
    XCTAssertEqual(Payload.object(reply.events[0].annotations["unread"])["foo"], "2")
  }

  func testAPostHogRequestReportsItsUnknownQueryAndFormFields() throws {
    let body = #"{"api_key":"phc_k","event":"e","distinct_id":"d"}"#
    let json = try XCTUnwrap(
      endpointReply("/e", body: body, query: [("ip", "1"), ("ver", "1.200.0"), ("zz", "1")])
    ).events
    XCTAssertEqual(json.map(unread), [["zz"]])
    let data = try XCTUnwrap(
      Data(body.utf8).base64EncodedString().addingPercentEncoding(withAllowedCharacters: .alphanumerics))
    let form = try XCTUnwrap(
      endpointReply(
        "/e", body: "data=" + data + "&compression=base64&yy=2",
        contentType: "application/x-www-form-urlencoded")
    ).events
    XCTAssertEqual(form.map(unread), [["yy"]])
    XCTAssertEqual(form.map(reported), [["1 field not understood"]])
  }

  private func unread(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.unread(event) }
  private func reported(_ event: IngestedEvent) -> [String] { SDKFieldAccountTests.reported(event) }
}
