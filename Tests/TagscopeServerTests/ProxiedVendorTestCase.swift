import Foundation
import XCTest

@testable import TagscopeServer

/// Tests that send to vendors' real host names over HTTPS through `tagscope proxy`: each test gets
/// a folder of its own and a local TLS vendor answering for ``hosts`` (the test-only resolve
/// override points them at it).
class ProxiedVendorTestCase: XCTestCase {
  /// The host names the local vendor answers for.
  var hosts: [String] { [] }
  /// The test's own folder (the vendor's and the proxy's files, the bodies posted).
  private(set) var directory: URL!
  /// The local vendor: what it received, in order.
  private(set) var vendor: VendorServer!

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "\(type(of: self))-\(UUID().uuidString)")
    vendor = try await VendorServer.start(hosts: hosts, directory: directory.appendingPathComponent("vendor"))
  }

  override func tearDown() async throws {
    await vendor.shutdown()
    try? FileManager.default.removeItem(at: directory)
  }

  /// A `proxy` in front of the vendor, intercepting `intercept` besides the vendors' own hosts.
  func startProxy(forward: Bool, intercept: [String] = []) async throws -> (ListenServer, Collector) {
    try await startServer(
      vendor.proxyConfiguration(
        authorityDirectory: directory.appendingPathComponent("proxy-ca"),
        hosts: InterceptedHosts(extra: intercept), forward: forward))
  }

  /// `body` gzip'd, posted to `url` through the proxy by `proxy_client.py post`: its exit status,
  /// `STATUS X-Vendor BODY`, and the bytes sent.
  func post(_ url: String, _ body: String, proxyPort: Int) throws -> (
    status: Int32, output: String, sent: [UInt8]
  ) {
    let bytes = try gzip(Array(body.utf8))
    let file = directory.appendingPathComponent("body-\(UUID().uuidString).gz")
    try Data(bytes).write(to: file)
    let result = try runProxyClient(
      ["post", url, file.path], proxyPort: proxyPort,
      caFile: directory.appendingPathComponent("proxy-ca/ca.pem").path)
    return (result.status, result.output, bytes)
  }
}
