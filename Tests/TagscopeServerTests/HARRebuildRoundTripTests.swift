import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import TagscopeVendors
import XCTest

@testable import TagscopeServer

/// `tagscope export --har` rebuilds each vendor's requests from its registry descriptor
/// (``Vendor/Rebuild``): every SDK's real payloads (``SDKDeviceFixtures``) imported, exported and
/// imported again give the same records, and the rebuilt requests go to the host and path the SDK
/// itself sends to.
final class HARRebuildRoundTripTests: XCTestCase {
  /// The hosts both imports decode besides the SDKs' own: loopback (the fixtures' requests) and
  /// the placeholder collector a Snowplow entry names.
  private let importer = CaptureImport(
    hosts: InterceptedHosts(extra: ["127.0.0.1", "snowplow-collector.invalid"]), address: "127.0.0.1")

  private func quoted(_ text: String) -> String { JSONText.quoted(text) }

  /// The HAR of `requests` as sent to a local listen.
  private func har(_ requests: [(method: String, path: String, body: String)]) -> String {
    let entries = requests.enumerated().map { index, request -> String in
      let mimeType =
        request.body.hasPrefix("{") || request.body.hasPrefix("[")
        ? "application/json"
        : request.body.hasPrefix("data=") ? "application/x-www-form-urlencoded" : "text/plain"
      let postData =
        request.method == "GET"
        ? "" : #","postData":{"mimeType":"\#(mimeType)","text":\#(quoted(request.body))}"#
      return
        #"{"startedDateTime":"2026-11-25T10:00:0\#(index).000Z","request":{"method":"\#(request.method)","#
        + #""url":\#(quoted("http://127.0.0.1:8080" + request.path)),"httpVersion":"HTTP/1.1","headers":[],"#
        + #""queryString":[]\#(postData)},"response":{"status":200,"headers":[],"content":{"size":0}},"timings":{}}"#
    }
    return #"{"log":{"version":"1.2","creator":{"name":"test","version":"1"},"entries":["#
      + entries.joined(separator: ",") + "]}}"
  }

  private func imported(_ har: String) throws -> (records: [Record], summary: CaptureImport.Summary) {
    var records: [Record] = []
    var bytes = Array(har.utf8)
    let summary = try bytes.withUnsafeMutableBufferPointer { buffer in
      try importer.run(bytes: UnsafeBufferPointer(buffer)) { records += $0 }
    }
    return (records, summary)
  }

  /// The HAR export of `records`, its entries' URLs and the outcomes of records with no entry.
  private func exported(_ records: [Record]) throws -> (
    har: String, urls: [String], skipped: [HARExport.Outcome]
  ) {
    let export = try HARRebuildRoundTrip().exported(records)
    let urls = try export.requests.map { try XCTUnwrap($0["url"] as? String) }
    return (export.har, urls, export.skipped)
  }

  /// Each SDK's payloads round trip through a HAR export, field for field, and each rebuilt request
  /// is sent where that SDK sends it.
  func testEverySDKsRecordsRoundTripThroughTheirVendorsRebuild() throws {
    let wanted: [String: String] = [
      "segment": "https://api.segment.io/v1/b", "rudderstack": "https://hosted.rudderlabs.com/v1/batch",
      "amplitude": "https://api2.amplitude.com/2/httpapi", "mixpanel": "https://api.mixpanel.com/track",
      "posthog": "https://us.i.posthog.com/batch/",
      "snowplow": "https://snowplow-collector.invalid/",
      "ga4": "https://www.google-analytics.com/",
    ]
    for fixture in SDKDeviceFixtures.all {
      let (recording, first) = try imported(har(fixture.requests))
      XCTAssertEqual(first.problems, [], fixture.name)
      XCTAssertGreaterThanOrEqual(recording.count, 2, fixture.name)
      let (again, urls, skipped) = try exported(recording)
      XCTAssertEqual(skipped.filter { $0 != .sameRequest }, [], fixture.name)
      let provider = try XCTUnwrap(recording.first?.outputs.first?.provider)
      let prefix = try XCTUnwrap(wanted[provider], "\(fixture.name): \(provider) has no rebuild")
      for url in urls { XCTAssertTrue(url.hasPrefix(prefix), "\(fixture.name): \(url)") }
      let (records, summary) = try imported(again)
      XCTAssertEqual(summary.problems, [], fixture.name)
      XCTAssertEqual(summary.unread, [], fixture.name)
      XCTAssertEqual(records.count, recording.count, fixture.name)
      for (got, want) in zip(records, recording) { XCTAssertEqual(got, want, "\(fixture.name) \(want.seq)") }
    }
  }

  /// The registry names every vendor HAR export rebuilds, and a vendor without an entry there is
  /// not exported (its records are counted, never written as a wrong request).
  func testTheRegistryListsTheRebuiltVendors() {
    XCTAssertEqual(
      HARExport.providers,
      [
        "adobe", "amplitude", "braze", "firebase", "fpti", "ga4", "mixpanel", "mparticle", "piano", "posthog",
        "rudderstack", "segment", "snowplow",
      ])
    XCTAssertEqual(Set(HARExport.providers), Set(Vendors.rebuilt.map(\.id.rawValue)))
    var export = HARExport(creatorVersion: "test")
    // A record that does not keep what its vendor's rebuild needs says why; a vendor the registry
    // does not name is said too.
    for (provider, reason) in [
      ("mparticle", "it keeps no `path`: its request's path is kept by the first record"),
      ("firebase", "it keeps no `place` in an upload: a debug log line's record"),
      ("unknown-sdk", "no request is rebuilt for unknown-sdk"),
    ] {
      let record = Record(
        seq: 1, time: Date(), kind: .event, name: "play",
        outputs: [ProviderOutput(provider: provider, status: .sent)], raw: "")
      let said = HARRebuildRoundTrip.notRebuilt(export.outcomes(record))
      XCTAssertEqual(said.count, 1, provider)
      XCTAssertTrue(said.first?.hasPrefix(provider + ": " + reason) == true, "\(said)")
    }
  }
}
