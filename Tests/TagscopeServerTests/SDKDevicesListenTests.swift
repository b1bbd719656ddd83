import AnalyticsHub
import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// Several devices, each an official Python SDK (`scripts/sdk-clients/device_client.py`) with its own
/// device id, all from 127.0.0.1 into one real `listen`: as many sources as devices, and each
/// device's event after its screen call carries that screen — live and in the recording.
final class SDKDevicesListenTests: XCTestCase {
  /// One simulated device: the SDK it uses, its device id and the screen it shows.
  private struct Device: Sendable {
    var sdk: String
    var id: String
    var screen: String
  }

  private let two = [
    Device(sdk: "segment", id: "sim-alpha", screen: "Alpha Home"),
    Device(sdk: "segment", id: "sim-bravo", screen: "Bravo Cart"),
  ]

  /// Two devices per SDK where the address alone would fold them into one source.
  private let five = [
    Device(sdk: "segment", id: "sim-charlie", screen: "Charlie List"),
    Device(sdk: "segment", id: "sim-delta", screen: "Delta Search"),
    Device(sdk: "amplitude", id: "amp-echo-0001", screen: "Echo Profile"),
    Device(sdk: "amplitude", id: "amp-foxtrot-01", screen: "Foxtrot Orders"),
    Device(sdk: "posthog", id: "ph-golf-0001", screen: "Golf Settings"),
  ]

  /// The other SDKs, for the recording.
  private let recorded = [
    Device(sdk: "rudderstack", id: "rs-hotel", screen: "Hotel Deals"),
    Device(sdk: "rudderstack", id: "rs-india", screen: "India Basket"),
    Device(sdk: "mixpanel", id: "mp-juliet-01", screen: "Juliet Wishlist"),
    Device(sdk: "snowplow", id: "sp-kilo-0001", screen: "Kilo Checkout"),
    Device(sdk: "snowplow", id: "sp-lima-0001", screen: "Lima Receipt"),
  ]

  /// Runs every device's client at once; fails on any client's error.
  private func run(_ devices: [Device], port: Int) throws {
    let results = LockedArray<(Device, Int32, String)>()
    let skipped = LockedArray<XCTSkip>()
    DispatchQueue.concurrentPerform(iterations: devices.count) { index in
      let device = devices[index]
      do {
        let result = try runSDKClient(
          "device_client", port: port, arguments: [device.sdk, device.id, device.screen])
        results.append((device, result.status, result.output))
      } catch let skip as XCTSkip {
        skipped.append(skip)
      } catch {
        results.append((device, -1, "\(error)"))
      }
    }
    if let skip = skipped.all.first { throw skip }
    for (device, status, output) in results.all {
      XCTAssertEqual(status, 0, "\(device.sdk) \(device.id): \(output)")
    }
  }

  /// The device id `listen` read from a record's payload.
  private func deviceID(_ record: Record) -> String? {
    Payload.string(Payload.object(record.context.extra["device"])["id"])
  }

  /// Each device is one source of its own, and its event after its screen call shows that screen.
  private func check(
    _ records: [Record], devices: [Device], file: StaticString = #filePath, line: UInt = #line
  ) {
    XCTAssertEqual(
      Set(records.compactMap(\.source)).count, devices.count, "\(Set(records.compactMap(\.source)))",
      file: file, line: line)
    for device in devices {
      let own = records.filter { deviceID($0) == device.id }
      XCTAssertEqual(own.count, 2, "\(device.sdk) \(device.id)", file: file, line: line)
      XCTAssertEqual(Set(own.map(\.source)).count, 1, "\(device.id) is one source", file: file, line: line)
      XCTAssertTrue(
        own.first?.source?.contains(device.id.prefix(4)) ?? false,
        "\(own.first?.source ?? "") names \(device.id)",
        file: file, line: line)
      let event = own.first { $0.kind == .event }
      XCTAssertEqual(event?.name, "Add To Cart", file: file, line: line)
      XCTAssertEqual(event?.context.screen, device.screen, "\(device.id)'s event", file: file, line: line)
      XCTAssertEqual(event?.context.history, [device.screen], file: file, line: line)
    }
  }

  func testTwoSegmentDevicesFromOneAddressAreTwoSources() async throws {
    let (server, collector) = try await startServer()
    try run(two, port: server.port)
    let records = collector.waitForRecords(4)
    try await server.shutdown()
    check(records, devices: two)
    XCTAssertEqual(
      Set(records.compactMap(\.source)), ["Shop@iPhone15,2 · sim-alpha", "Shop@iPhone15,2 · sim-bravo"])
  }

  func testFiveDevicesOfThreeSDKsFromOneAddressAreFiveSources() async throws {
    let (server, collector) = try await startServer()
    try run(five, port: server.port)
    let records = collector.waitForRecords(10)
    try await server.shutdown()
    check(records, devices: five)
  }

  /// What `listen` recorded from such traffic, read back with the timeline, folds the same
  /// per-device screens as it did live.
  func testTheRecordingReplaysEachDevicesScreens() async throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sdk-devices-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let url = folder.appendingPathComponent("listen.jsonl")
    let timeline = try Timeline.live(recordingTo: url, header: RecordingHeader(app: "tagscope listen"))
    let session = LiveSession(store: timeline, checker: nil)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    try run(recorded, port: server.port)
    try await server.shutdown()
    session.close()
    XCTAssertEqual(timeline.count, 2 * recorded.count)

    let replay = try Timeline.open(path: url.path)
    defer { replay.release() }
    replay.waitUntilIndexed()
    XCTAssertEqual(replay.count, timeline.count)
    check((0..<replay.count).compactMap { try? replay.record(at: $0) }, devices: recorded)
    for index in 0..<replay.count {
      let record = try replay.record(at: index)
      let state = try replay.state(at: index)
      XCTAssertEqual(state.source, record.source)
      let device = recorded.first { $0.id == deviceID(record) }
      XCTAssertEqual(state.screen, device?.screen, "record \(index) of \(record.source ?? "")")
      XCTAssertEqual(state, try timeline.state(at: index), "record \(index): the replay folds as live did")
    }
    timeline.release()
    try checkPlan(url.path, replay: replay)
  }

  /// `tagscope validate` of that recording checks each device's event against the plan's screens
  /// (allowed on two devices' screens only) and reports coverage per device (`--by-source`); the
  /// filter language finds a device by its label.
  private func checkPlan(_ path: String, replay: Timeline) throws {
    let plan = try PlanLoader.load(
      yaml: """
        plan: Shop
        version: 1
        screens:
          Hotel Deals: {}
          India Basket: {}
          Juliet Wishlist: {}
          Kilo Checkout: {}
          Lima Receipt: {}
        events:
          Add To Cart:
            screens: [Hotel Deals, India Basket]
        """, file: "shop.yaml")
    let outcome = ValidateRunner.run(
      plan: plan, recordings: [path], format: .text, failOn: .error, bySource: true)
    let report = try XCTUnwrap(outcome.report, outcome.diagnostics)
    let records = (0..<replay.count).compactMap { try? replay.record(at: $0) }
    let device = { (seq: UInt64) in records.first { $0.seq == seq }.flatMap(self.deviceID) }
    XCTAssertEqual(
      Set(report.violations.filter { $0.rule == .wrongScreen }.compactMap { device($0.seq) }),
      ["mp-juliet-01", "sp-kilo-0001", "sp-lima-0001"], outcome.output)
    XCTAssertEqual(
      Set(report.coverageBySource?.map(\.source) ?? []), Set(records.compactMap(\.source)), "--by-source")
    let label = try XCTUnwrap(records.first { deviceID($0) == "rs-hotel" }?.source)
    let filter = try Filter.parse("source:\(FilterTerms.quotedValue(label))").get()
    XCTAssertEqual(try replay.filter(filter.timeline).count, 2, label)
  }
}
