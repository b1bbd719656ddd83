import AnalyticsHub
import Foundation
import NIOHTTP1
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 46 through the real proxy and a real loopback vendor: the delivery ledger learns the
/// vendor's answer to each forwarded SDK request, so a batch the vendor refuses has exactly its
/// calls refused (in flight until then), and an upstream that never answers is the proxy's own
/// `502`; `listen` answering itself (`--no-forward`) still delivers.
final class ProxyDeliveryAnswerTests: XCTestCase {
  private var directory: URL!
  private var vendors: [PlainVendorServer] = []

  static let batch =
    #"{"writeKey":"wk-1","batch":[{"type":"track","userId":"u-1","event":"Play"},"#
    + #"{"type":"track","userId":"u-1","event":"Pause"}]}"#

  override func setUp() async throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent("answers-\(UUID().uuidString)")
  }

  override func tearDown() async throws {
    for vendor in vendors { await vendor.shutdown() }
    try? FileManager.default.removeItem(at: directory)
  }

  func testAVendorsRefusalMarksExactlyTheCallsOfItsBatchRefused() async throws {
    let vendor = try await startVendor(.badRequest)
    let run = try await ProxyRun(directory: directory, vendorPort: vendor.port)
    run.session.deliver(.records([Self.inApp(["Play", "Pause", "Skip"])]))
    XCTAssertEqual(run.send(Self.batch)?.status, 400, "the vendor's answer is relayed")
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.refused) == 2 }, "\(ledger.snapshot())")
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.entries.map(\.state), [.refused, .refused, .queued])
    XCTAssertEqual(snapshot.entries.map(\.answerStatus), [400, 400, nil])
    XCTAssertNotNil(snapshot.entries.first?.latencyMilliseconds)
    XCTAssertEqual(vendor.requests.map(\.target), ["/v1/batch"])
    try await run.stop()
  }

  func testAVendorsSuccessDeliversAndAnUnreachableVendorIsTheProxys502() async throws {
    let vendor = try await startVendor(.accepted)
    let run = try await ProxyRun(directory: directory, vendorPort: vendor.port)
    run.session.deliver(.records([Self.inApp(["Play", "Pause"])]))
    XCTAssertEqual(run.send(Self.batch)?.status, 202)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 2 }, "\(ledger.snapshot())")
    XCTAssertEqual(ledger.snapshot().entries.map(\.answerStatus), [202, 202], "the vendor's status, not 200")
    try await run.stop()

    // A vendor that was there: its port now refuses connections.
    let gone = try await PlainVendorServer.start()
    await gone.shutdown()
    let unreachable = try await ProxyRun(directory: directory, vendorPort: gone.port)
    unreachable.session.deliver(.records([Self.inApp(["Play", "Pause"])]))
    XCTAssertEqual(unreachable.send(Self.batch)?.status, 502)
    let refused = try XCTUnwrap(unreachable.session.delivery)
    XCTAssertTrue(eventually { refused.snapshot().count(.refused) == 2 }, "\(refused.snapshot())")
    XCTAssertEqual(refused.snapshot().entries.map(\.answerStatus), [502, 502])
    try await unreachable.stop()
  }

  func testListenAnsweringItselfDeliversWithoutAVendor() async throws {
    let vendor = try await startVendor(.badRequest)
    let run = try await ProxyRun(directory: directory, vendorPort: vendor.port, forward: false)
    run.session.deliver(.records([Self.inApp(["Play", "Pause"])]))
    XCTAssertEqual(run.send(Self.batch)?.status, 200)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 2 }, "\(ledger.snapshot())")
    XCTAssertEqual(vendor.requests.count, 0)
    try await run.stop()
  }

  private func startVendor(_ status: HTTPResponseStatus) async throws -> PlainVendorServer {
    let vendor = try await PlainVendorServer.start(status: status)
    vendors.append(vendor)
    return vendor
  }

  /// An in-app record whose Segment output holds a `track` call of each of `names`.
  static func inApp(_ names: [String]) -> Record {
    let calls = names.map { CallDescription(method: "track", name: $0, parameters: [:]) }
    return Record(
      seq: 1, time: Date(), kind: .event, name: names[0], properties: [:],
      outputs: [ProviderOutput(provider: "segment", status: .sent, calls: calls)], source: "phone")
  }
}

/// A live session with its ledger behind `listen`'s proxy, every host resolved to one vendor.
private struct ProxyRun {
  let session = LiveSession(store: nil)
  let server: ListenServer

  init(directory: URL, vendorPort: Int, forward: Bool = true) async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.host = "127.0.0.1"
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: forward, authorityDirectory: directory.appendingPathComponent("ca"),
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: vendorPort)])
    server = try await ListenServer.start(configuration: configuration, ingest: session)
  }

  /// Posts `body` to Segment's batch endpoint through the proxy; its answer.
  func send(_ body: String) -> (status: Int, body: String)? {
    guard let client = try? RawClient(port: server.proxyPort ?? 0, timeout: 20) else { return nil }
    client.send(
      "POST http://api.segment.io/v1/batch HTTP/1.1\r\nHost: api.segment.io\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
    return client.readResponse()
  }

  func stop() async throws {
    try await server.shutdown()
    session.close()
  }
}
