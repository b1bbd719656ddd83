import Foundation
import NIOCore
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// The official Python SDKs, unchanged, sending to their vendors' real host names through
/// `tagscope proxy` (HTTPS_PROXY, the proxy's CA as their trust bundle); the proxy resolves those
/// names to a local TLS "vendor" (``VendorServer``) that it verifies against the vendor's own CA.
final class ProxySDKTests: XCTestCase {
  private var directory: URL!
  private var vendor: VendorServer!

  static let vendorHosts = [
    "api.segment.io", "acme.dataplane.rudderstack.com", "api2.amplitude.com", "api.mixpanel.com",
    "us.i.posthog.com", "collector.acme.test", "unlisted.example.org", "nativesdks.us1.mparticle.com",
    "identity.us1.mparticle.com",
  ]

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "proxy-sdk-\(UUID().uuidString)")
    vendor = try await VendorServer.start(
      hosts: Self.vendorHosts, directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  private func startProxy(forward: Bool = true, upstreamTimeout: TimeAmount = .seconds(30)) async throws -> (
    ListenServer, Collector
  ) {
    try await startServer(
      vendor.proxyConfiguration(
        authorityDirectory: directory.appendingPathComponent("proxy-ca"),
        hosts: InterceptedHosts(extra: ["collector.acme.test"]), forward: forward,
        upstreamTimeout: upstreamTimeout))
  }

  private func runClient(_ arguments: [String], proxyPort: Int, caFile: String) throws -> (
    status: Int32, output: String
  ) {
    return try runProxyClient(arguments, proxyPort: proxyPort, caFile: caFile)
  }

  /// Each SDK's events become records of its provider, and reach the vendor's real host name and
  /// path, its answer relayed (the SDK saw success).
  func testEveryOfficialSDKIsRecordedAndForwardedToItsVendor() async throws {
    let cases: [(sdk: String, provider: String, records: Int, host: String, path: String)] = [
      ("segment", "segment", 2, "api.segment.io", "/v1/batch"),
      ("rudderstack", "rudderstack", 2, "acme.dataplane.rudderstack.com", "/v1/batch"),
      ("amplitude", "amplitude", 2, "api2.amplitude.com", "/2/httpapi"),
      ("mixpanel", "mixpanel", 2, "api.mixpanel.com", "/track"),
      ("posthog", "posthog", 2, "us.i.posthog.com", "/batch"),
      ("snowplow", "snowplow", 2, "collector.acme.test", "/com.snowplowanalytics.snowplow/tp2"),
    ]
    let (server, collector) = try await startProxy()
    let caFile = directory.appendingPathComponent("proxy-ca/ca.pem").path
    var expected = 0
    for item in cases {
      let before = vendor.requests.count
      let result = try runClient([item.sdk], proxyPort: server.proxyPort ?? 0, caFile: caFile)
      XCTAssertEqual(result.status, 0, "\(item.sdk): \(result.output)")
      expected += item.records
      let records = collector.waitForRecords(expected)
      let mine = records.suffix(item.records)
      XCTAssertEqual(records.count, expected, "\(item.sdk): \(server.statistics.summary)")
      for record in mine {
        XCTAssertEqual(record.outputs.map(\.provider), [item.provider], item.sdk)
      }
      let received = vendor.requests[before...]
      XCTAssertTrue(
        received.contains { $0.host.hasPrefix(item.host) && $0.path.hasPrefix(item.path) },
        "\(item.sdk): the vendor got \(received.map { "\($0.host) \($0.method) \($0.path)" })")
    }
    XCTAssertEqual(server.statistics.tunnels, 0)
    XCTAssertEqual(server.statistics.upstreamFailures, 0, server.statistics.summary)
    try await server.shutdown()
  }

  /// The body reaches the vendor byte for byte (still gzip, as the client sent it), and the
  /// vendor's answer reaches the client byte for byte, its own header included.
  func testRequestAndAnswerPassUnchanged() async throws {
    let (server, collector) = try await startProxy()
    let json = #"{"batch":[{"type":"track","event":"Play Podcast","userId":"u-1","properties":{"n":1}}]}"#
    let body = try gzip(Array(json.utf8))
    let file = directory.appendingPathComponent("body.gz")
    try Data(body).write(to: file)
    let result = try runClient(
      ["post", "https://api.segment.io/v1/batch", file.path], proxyPort: server.proxyPort ?? 0,
      caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertEqual(result.output, "200 tagscope-test " + VendorServer.answer)
    let received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.body, body)
    XCTAssertEqual(received.headers.first { $0.0.lowercased() == "content-encoding" }?.1, "gzip")
    XCTAssertNil(received.headers.first { $0.0.lowercased() == "proxy-connection" })
    XCTAssertEqual(collector.waitForRecords(1).map(\.name), ["Play Podcast"])
    try await server.shutdown()
  }

  /// Inside an intercepted `CONNECT`, a gzip body past Segment's 32 KB per call once decompressed
  /// gets Segment's own `400 request_too_large` from tagscope, as listen answers it, and never
  /// reaches the vendor.
  func testADecompressionBombInsideTLSIsAnsweredAsListenAndNotForwarded() async throws {
    let (server, _) = try await startProxy()
    let body = try gzip(Array(repeating: UInt8(ascii: " "), count: 4 * SegmentEndpoint.messageLimit))
    let file = directory.appendingPathComponent("bomb.gz")
    try Data(body).write(to: file)
    let before = vendor.requests.count
    let result = try runClient(
      ["post", "https://api.segment.io/v1/track", file.path], proxyPort: server.proxyPort ?? 0,
      caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    XCTAssertNotEqual(result.status, 0, result.output)
    XCTAssertTrue(result.output.hasPrefix("400 - "), result.output)
    XCTAssertTrue(result.output.contains("request_too_large"), result.output)
    XCTAssertEqual(vendor.requests.count, before, "not forwarded")
    XCTAssertEqual(server.statistics.rejected[.bodyTooLarge], 1)
    try await server.shutdown()
  }

  /// mParticle's iOS SDK upload (`Tests/Fixtures/mparticle-native`, gzip'd) to its own host,
  /// `nativesdks.<pod>.mparticle.com`: decrypted, each message an mParticle record, and forwarded
  /// byte for byte.
  func testTheMParticleMobileUploadIsDecryptedRecordedAndForwarded() async throws {
    let (server, collector) = try await startProxy()
    let batch = try Data(
      contentsOf: packageRoot.appendingPathComponent("Tests/Fixtures/mparticle-native/ios-batch.json"))
    let body = try gzip(Array(batch))
    let file = directory.appendingPathComponent("batch.gz")
    try Data(body).write(to: file)
    let result = try runClient(
      ["post", "https://nativesdks.us1.mparticle.com/v2/us1-abc/events", file.path],
      proxyPort: server.proxyPort ?? 0, caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    XCTAssertEqual(result.status, 0, result.output)
    let records = collector.waitForRecords(4)
    XCTAssertEqual(records.map(\.name), ["session_start", "Home", "Choose Item", "Choose Item"])
    XCTAssertEqual(Set(records.compactMap { $0.outputs.first?.provider }), ["mparticle"])
    let received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "nativesdks.us1.mparticle.com")
    XCTAssertEqual(received.path, "/v2/us1-abc/events")
    XCTAssertEqual(received.body, body)
    try await server.shutdown()
  }

  /// mParticle's IDSync login to `identity.<pod>.mparticle.com`: decrypted, recorded as an
  /// identify record with the user, and forwarded byte for byte.
  func testAnMParticleIdentityCallIsDecryptedRecordedAndForwarded() async throws {
    let (server, collector) = try await startProxy()
    let login =
      #"{"client_sdk":{"platform":"ios"},"known_identities":{"ios_idfv":"E621E1F8","customerid":"cust-42"}}"#
    let body = try gzip(Array(login.utf8))
    let file = directory.appendingPathComponent("login.gz")
    try Data(body).write(to: file)
    let result = try runClient(
      ["post", "https://identity.us1.mparticle.com/v1/login", file.path],
      proxyPort: server.proxyPort ?? 0, caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    XCTAssertEqual(result.status, 0, result.output)
    let records = collector.waitForRecords(1)
    XCTAssertEqual(records.map { "\($0.kind.rawValue) \($0.name)" }, ["identify login"])
    XCTAssertEqual(records.first?.context.session?.user, "cust-42")
    let received = try XCTUnwrap(vendor.requests.last)
    XCTAssertEqual(received.host, "identity.us1.mparticle.com")
    XCTAssertEqual(received.path, "/v1/login")
    XCTAssertEqual(received.body, body)
    try await server.shutdown()
  }

  /// A vendor that stalls gets `504` after the upstream deadline, one that resets `502`; the
  /// records of those requests are kept (the proxy took them before forwarding), the failure is
  /// reported, and the next request goes through. (The deadline is 4 s so that the answering
  /// vendor of the last round is well within it on a busy machine.)
  func testAStallingOrResettingVendorIsAnsweredAndNothingIsLost() async throws {
    let (server, collector) = try await startProxy(upstreamTimeout: .seconds(4))
    let json = #"{"batch":[{"type":"track","event":"Play Podcast","userId":"u-1"}]}"#
    let file = directory.appendingPathComponent("body.gz")
    try Data(try gzip(Array(json.utf8))).write(to: file)
    let caFile = directory.appendingPathComponent("proxy-ca/ca.pem").path
    for (mode, status) in [(VendorServer.Mode.stall, "504"), (.reset, "502"), (.answer, "200")] {
      vendor.mode = mode
      let result = try runClient(
        ["post", "https://api.segment.io/v1/batch", file.path], proxyPort: server.proxyPort ?? 0,
        caFile: caFile)
      XCTAssertTrue(result.output.hasPrefix(status + " "), "\(mode): \(result.output)")
    }
    XCTAssertEqual(collector.waitForRecords(3).count, 3)
    XCTAssertEqual(server.statistics.upstreamFailures, 2)
    XCTAssertEqual(server.statistics.timeouts[.upstream], 1)
    let problems = collector.events.compactMap { event -> String? in
      if case .problem(_, let message) = event { return message }
      return nil
    }
    XCTAssertTrue(problems.contains { $0.contains("did not answer within 4 s") }, "\(problems)")
    XCTAssertTrue(problems.contains { $0.contains("closed the connection before answering") }, "\(problems)")
    try await server.shutdown()
  }

  /// A host not on the list is tunnelled: the client's own TLS reaches the vendor (it verifies the
  /// vendor's certificate with the vendor's CA, which fails if anything decrypted on the way).
  func testOtherHostsAreTunnelledNotDecrypted() async throws {
    let (server, collector) = try await startProxy()
    let result = try runClient(
      ["tunnel", "https://unlisted.example.org/hello", vendor.authority.certificateFile.path],
      proxyPort: server.proxyPort ?? 0, caFile: vendor.authority.certificateFile.path)
    XCTAssertEqual(result.status, 0, result.output)
    XCTAssertTrue(result.output.hasPrefix("200 "), result.output)
    XCTAssertEqual(vendor.requests.last?.host, "unlisted.example.org")
    XCTAssertEqual(server.statistics.tunnels, 1)
    XCTAssertEqual(server.statistics.proxiedRequests, 0)
    XCTAssertEqual(collector.records.count, 0)
    try await server.shutdown()
  }

  /// `--no-forward`: the SDKs get `listen`'s own answers; nothing reaches the vendor.
  func testNoForwardAnswersLocally() async throws {
    let (server, collector) = try await startProxy(forward: false)
    let caFile = directory.appendingPathComponent("proxy-ca/ca.pem").path
    for sdk in ["segment", "mixpanel", "posthog"] {
      let result = try runClient([sdk], proxyPort: server.proxyPort ?? 0, caFile: caFile)
      XCTAssertEqual(result.status, 0, "\(sdk): \(result.output)")
    }
    XCTAssertEqual(collector.waitForRecords(6).count, 6)
    XCTAssertEqual(vendor.requests.count, 0)
    try await server.shutdown()
  }
}
