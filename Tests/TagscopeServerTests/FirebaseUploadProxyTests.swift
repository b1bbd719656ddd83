import AnalyticsHub
import Foundation
import NIOCore
import TaggingPlan
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Firebase's own uploads through the real `tagscope proxy` and `listen`: the Android 2021 capture
/// (`Tests/Fixtures/firebase-upload`) sent to Firebase's real host names is decrypted, decoded,
/// recorded, judged against a plan, and relayed byte for byte to the vendor (a local TLS server
/// the proxy resolves those names to); with `--no-forward` answered as Firebase answers.
final class FirebaseUploadProxyTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  static let hosts = ["app-measurement.com", "region1.app-measurement.com", "app-analytics-services-att.com"]

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "firebase-proxy-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: Self.hosts, directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  private func startProxy(forward: Bool) async throws -> (ListenServer, Collector) {
    try await startServer(
      vendor.proxyConfiguration(
        authorityDirectory: directory.appendingPathComponent("proxy-ca"), forward: forward))
  }

  /// Posts the 2021 capture's gzip body (with `Content-Encoding: gzip`, as Android sends it) to
  /// `url` through the proxy; the client's output (`STATUS VENDOR BODY`).
  private func post(_ url: String, proxyPort: Int) throws -> (status: Int32, output: String) {
    let file = FirebaseUploadFixtureTests.fixtures.appendingPathComponent("android-2021.pb.gz")
    return try runProxyClient(
      ["post", url, file.path], proxyPort: proxyPort,
      caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
  }

  func testUploadsToFirebasesHostsAreDecodedJudgedAndRelayedByteForByte() async throws {
    let (server, collector) = try await startProxy(forward: true)
    let body = try FirebaseUploadFixtureTests.fixture("android-2021.pb.gz")
    for (index, host) in Self.hosts.enumerated() {
      let result = try post("https://\(host)/a", proxyPort: server.proxyPort ?? 0)
      XCTAssertEqual(result.status, 0, result.output)
      XCTAssertTrue(
        result.output.hasPrefix("200 tagscope-test"), "the vendor's answer relayed: \(result.output)")
      let records = collector.waitForRecords(13 * (index + 1))
      XCTAssertEqual(vendor.requests.count, index + 1)
      let received = try XCTUnwrap(vendor.requests.last)
      XCTAssertEqual(received.host, host)
      XCTAssertEqual(received.path, "/a")
      XCTAssertEqual(received.body, body, "byte for byte")
      XCTAssertEqual(records.count, 13 * (index + 1))
    }
    let records = collector.records
    try await server.shutdown()
    guard records.count >= 13 else { return XCTFail("\(records.count) records") }
    let first = Array(records.prefix(13))
    XCTAssertEqual(first[1].name, "OUTGOING_CALL_PLACED")
    XCTAssertEqual(first[1].outputs.first?.provider, "firebase")
    XCTAssertEqual(first[1].outputs.first?.calls.first?.method, "logEvent")
    XCTAssertEqual(first[4].kind, .screen)
    XCTAssertEqual(first[4].name, "MainActivity")
    XCTAssertEqual(first[5].context.screen, "MainActivity", "the screen view moved the device's screen")
    XCTAssertEqual(first[0].context.session?.id, "1635013035")
    XCTAssertEqual(
      first[0].outputs.first?.extra["gmp_app_id"], "1:566865154279:android:85888a731cba65c4ed1242")

    // A plan with one planted mistake: the call must carry a call_type it does not carry.
    let plan = try PlanLoader.load(
      yaml: """
        plan: Dialer
        version: 1
        screens:
          MainActivity: {}
        events:
          OUTGOING_CALL_PLACED:
            properties:
              call_type: {type: string, required: true}
        """, file: "dialer.yaml")
    var validator = PlanValidator(plan: plan)
    let found = first.map { validator.validate($0) }
    XCTAssertEqual(found[1].map(\.rule), [.missingProperty], "\(found[1].map(\.message))")
    XCTAssertTrue(found[1].first?.message.contains("call_type") ?? false, "\(found[1].map(\.message))")
    XCTAssertEqual(found[4].map(\.message), [], "the planned screen passes")
  }

  func testNoForwardAnswersAsFirebaseDoes() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let result = try post("https://region1.app-measurement.com/a", proxyPort: server.proxyPort ?? 0)
    // The client counts anything but 200 as a problem: its output is what the SDK got.
    XCTAssertTrue(result.output.hasPrefix("204 - "), "Firebase's own answer, no vendor: \(result.output)")
    XCTAssertEqual(collector.waitForRecords(13).count, 13)
    XCTAssertEqual(vendor.requests.count, 0)
    try await server.shutdown()
  }
}
