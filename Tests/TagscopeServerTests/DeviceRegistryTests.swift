import AnalyticsHub
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// ``DeviceRegistry``: labels stay apart, state stays per device, and a flood of device ids is
/// bounded.
final class DeviceRegistryTests: XCTestCase {
  private func event(_ kind: TagKind, _ name: String, device: String, app: String? = "Shop") -> IngestedEvent
  {
    IngestedEvent(
      provider: "segment", kind: kind, name: name, properties: [:],
      identity: DeviceIdentity(deviceID: device, app: app, model: "iPhone15,2", anonymousID: device),
      call: CallDescription(method: kind == .screen ? "screen" : "track", name: name), raw: "{}")
  }

  func testIdsSharingTheirFirstCharactersGetLongerLabels() {
    var registry = DeviceRegistry(limit: 16)
    let first = registry.place(
      event(.event, "a", device: "4F2A0000-1111-2222-3333-444444444444"), address: "10.0.0.1")
    let second = registry.place(
      event(.event, "b", device: "4F2A0000-9999-2222-3333-444444444444"), address: "10.0.0.1")
    let third = registry.place(
      event(.event, "c", device: "4F2A9999-1111-2222-3333-444444444444"), address: "10.0.0.1")
    XCTAssertEqual(first.source, "Shop@iPhone15,2 · 4F2A")
    XCTAssertEqual(second.source, "Shop@iPhone15,2 · 4F2A0000")
    XCTAssertEqual(third.source, "Shop@iPhone15,2 · 4F2A9999")
    let fourth = registry.place(
      event(.event, "e", device: "4F2A0000-1111-2222-3333-444444444444", app: "Cart"), address: "10.0.0.1")
    XCTAssertEqual(
      fourth.source, "Cart@iPhone15,2 · 4F2A", "another app on the same device is another source")
    XCTAssertNotNil(first.announcement)
    XCTAssertNil(
      registry.place(event(.event, "d", device: "4F2A0000-1111-2222-3333-444444444444"), address: "10.0.0.2")
        .announcement)
  }

  func testScreensFollowTheirOwnDeviceAndHistoryIsBounded() {
    var registry = DeviceRegistry(limit: 16)
    _ = registry.place(event(.screen, "Alpha Home", device: "device-a"), address: "127.0.0.1")
    _ = registry.place(event(.screen, "Bravo Cart", device: "device-b"), address: "127.0.0.1")
    XCTAssertEqual(
      registry.place(event(.event, "tap", device: "device-a"), address: "127.0.0.1").context.screen,
      "Alpha Home")
    XCTAssertEqual(
      registry.place(event(.event, "tap", device: "device-b"), address: "127.0.0.1").context.screen,
      "Bravo Cart")
    for index in 0..<50 {
      _ = registry.place(event(.screen, "s\(index)", device: "device-a"), address: "127.0.0.1")
    }
    let context = registry.place(event(.event, "tap", device: "device-a"), address: "127.0.0.1").context
    XCTAssertEqual(context.history.count, DeviceState.historyLimit)
    XCTAssertEqual(context.history.last, "s49")
    let long = String(repeating: "é", count: 1000)
    let clipped = registry.place(event(.screen, long, device: "device-a"), address: "127.0.0.1").context
      .screen
    XCTAssertLessThanOrEqual(clipped?.utf8.count ?? .max, DeviceState.nameLimit)
  }

  /// A client inventing a new device id per call cannot grow the registry: past the limit, the
  /// longest idle devices are forgotten for the new ones (an eighth of the limit at once); a
  /// device still calling keeps its state, a forgotten one starts anew under its label.
  func testPastTheLimitTheLongestIdleDevicesAreForgotten() {
    var registry = DeviceRegistry(limit: 8)
    for index in 0..<8 {
      _ = registry.place(event(.screen, "S\(index)", device: "flood-\(index)"), address: "10.9.9.9")
    }
    _ = registry.place(event(.event, "tap", device: "flood-0"), address: "10.9.9.9")
    XCTAssertEqual(registry.forgotten, 0)
    let newcomer = registry.place(event(.screen, "New", device: "flood-8"), address: "10.9.9.9")
    XCTAssertEqual(newcomer.source, "Shop@iPhone15,2 · flood-8", "a new device gets its own source")
    XCTAssertNotNil(newcomer.announcement)
    XCTAssertEqual(registry.forgotten, 1, "one device (an eighth of 8) forgotten")
    XCTAssertEqual(registry.tracked, 8)
    XCTAssertEqual(
      registry.place(event(.event, "tap", device: "flood-0"), address: "10.9.9.9").context.screen, "S0",
      "the device used most recently before the newcomer kept its state")
    let returning = registry.place(event(.event, "tap", device: "flood-1"), address: "10.9.9.9")
    XCTAssertEqual(returning.source, "Shop@iPhone15,2 · flood-1", "a forgotten device keeps its label")
    XCTAssertNil(returning.context.screen, "the longest idle device was forgotten: it starts anew")
    for index in 100..<10_000 {
      _ = registry.place(event(.event, "E", device: "flood-\(index)"), address: "10.9.9.9")
    }
    XCTAssertLessThanOrEqual(registry.tracked, 8, "a flood never grows the registry past its limit")
    XCTAssertEqual(
      registry.place(event(.event, "E", device: "flood-9999"), address: "10.9.9.9").source,
      "Shop@iPhone15,2 · flood-9999")
  }

  /// The server reports the limit once, counts the devices it forgot in its statistics, and keeps
  /// giving every new device its own source.
  func testTheServerReportsTheDeviceLimitOnceAndCountsForgottenDevices() async throws {
    let (server, collector) = try await startServer()
    let count = ServerContext.deviceLimit + 5
    var batch: [String] = []
    for index in 0..<count {
      batch.append(#"{"type":"track","event":"E","anonymousId":"flood-\#(index)"}"#)
    }
    let reply = try httpRequest(
      port: server.port, path: "/v1/batch",
      body: #"{"writeKey":"k","batch":[\#(batch.joined(separator: ","))]}"#)
    try await server.shutdown()
    XCTAssertEqual(reply?.status, 200, reply?.body ?? "")
    XCTAssertEqual(collector.records.count, count)
    let problems = collector.events.filter { event in
      if case .problem(let source, let message) = event {
        return source == "listen" && message.contains("SDK devices")
      }
      return false
    }
    XCTAssertEqual(problems.count, 1)
    XCTAssertEqual(collector.records.last?.source, "segment@flood-\(count - 1)")
    let forgotten = server.statistics.forgottenDevices
    XCTAssertGreaterThanOrEqual(forgotten, 5)
    XCTAssertLessThanOrEqual(forgotten, ServerContext.deviceLimit / 8 + 5)
    XCTAssertTrue(
      server.statistics.summary.contains("\(forgotten) idle SDK devices forgotten"), server.statistics.summary
    )
  }
}
