import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

/// Issue 12: twenty phones (real RemoteSinks) and two SDKs at once into one `listen` with the
/// debugger's timeline attached — every record kept, each device's own state as of each of its
/// records, and the recording listen wrote replays with the same per-device state.
final class ManyDevicesListenTests: XCTestCase {
  /// Device `d`'s record `n` (1-based): a screen every 4th record, `d<d>-s<n/4>`.
  private static func record(device: Int, _ seq: Int) -> Record {
    let screen = "d\(device)-s\(seq / 4)"
    var record = Record(
      seq: UInt64(seq), time: Date(), kind: seq % 4 == 0 ? .screen : .userAction,
      name: seq % 4 == 0 ? screen : "tap")
    record.context = RecordContext(screen: screen, history: ["d\(device)-home", screen])
    record.outputs = [ProviderOutput(provider: "firebase", status: .sent)]
    return record
  }

  func testTwentyRemoteSinksAndTwoSDKsAtOnceKeepEveryRecordAndEachDevicesState() async throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("devices-\(UUID()).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let timeline = try Timeline.live(recordingTo: url, header: RecordingHeader(app: "tagscope listen"))
    let connections = SourceConnections()
    let session = LiveSession(store: timeline, checker: nil) { connections.note($0.events) }
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let perDevice = 300
    let sinks = (0..<20).map { device in
      RemoteSink(
        host: "127.0.0.1", port: UInt16(server.port),
        header: RecordingHeader(app: "Podcasts", device: "phone-\(device)", started: Date()),
        initialBackoff: 0.05, maximumBackoff: 0.2, log: { _ in })
    }
    // The phones send concurrently, while two SDKs post their own batches.
    await withTaskGroup(of: Void.self) { group in
      for (device, sink) in sinks.enumerated() {
        group.addTask {
          for seq in 1...perDevice { sink.send(Self.record(device: device, seq)) }
          sink.flush()
        }
      }
      group.addTask {
        for batch in 0..<10 {
          let reply = try? httpRequest(
            port: server.port, path: "/v1/batch",
            body: #"{"writeKey":"k","batch":[{"type":"track","event":"Segment \#(batch)","userId":"u"}]}"#)
          let amplitude = try? httpRequest(
            port: server.port, path: "/2/httpapi",
            body: #"{"api_key":"k","events":[{"event_type":"Amplitude \#(batch)","user_id":"user-42"}]}"#)
          XCTAssertEqual(reply?.status, 200)
          XCTAssertEqual(amplitude?.status, 200, amplitude?.body ?? "")
        }
      }
    }
    for sink in sinks { XCTAssertTrue(sink.waitUntilAcknowledged(timeout: 60)) }
    for sink in sinks { sink.close() }
    try await server.shutdown()
    session.close()

    XCTAssertEqual(timeline.count, 20 * perDevice + 20, "every record of every phone and SDK")
    let statistics = timeline.sourceStatistics()
    XCTAssertEqual(statistics.count, 22, statistics.map(\.name).joined(separator: ", "))
    for device in 0..<20 {
      XCTAssertEqual(statistics.first { $0.name == "Podcasts@phone-\(device)" }?.records, perDevice)
    }
    XCTAssertEqual(statistics.filter { $0.name.hasPrefix("segment@") }.map(\.records), [10])
    XCTAssertEqual(statistics.filter { $0.name.hasPrefix("amplitude@") }.map(\.records), [10])
    XCTAssertEqual(connections.snapshot().filter { $0.name.hasPrefix("Podcasts@") }.count, 20)

    // Each record's state is its own device's; the replayed recording folds the same.
    let replay = try Timeline.open(path: url.path)
    defer { replay.release() }
    replay.waitUntilIndexed()
    XCTAssertEqual(replay.count, timeline.count)
    for index in stride(from: 0, to: timeline.count, by: 37) {
      let live = try timeline.state(at: index)
      let record = try timeline.record(at: index)
      if let source = record.source, source.hasPrefix("Podcasts@phone-") {
        let device = Int(source.dropFirst("Podcasts@phone-".count))!
        XCTAssertEqual(live.screen, "d\(device)-s\(Int(record.seq) / 4)", "record \(index) of \(source)")
      }
      XCTAssertEqual(try replay.state(at: index), live, "record \(index): replay folds as live did")
    }
    timeline.release()
  }
}
