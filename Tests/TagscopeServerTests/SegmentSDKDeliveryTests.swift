import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

#if canImport(Glibc)
  import Glibc
#endif

/// Issue 46 with a real SDK behind the hub: a Segment adapter hands each call to Segment's official
/// Python SDK in a child process (one JSON line on its standard input; its queue, batching, message
/// ids and flush are its own), the SDK's host a real `listen`, the app's inspector attached to the
/// same `listen`: the live session's delivery ledger follows each call to its batch.
final class SegmentSDKDeliveryTests: XCTestCase {
  func testEveryTagTheSDKSentIsDeliveredWithItsBatch() async throws {
    let run = try await DeliveryRun(uploadSize: 100, uploadInterval: 0.5)
    let tags = run.sendPlays(4)
    run.child.finishInput()
    XCTAssertEqual(run.child.waitForExit(), 0, run.child.output)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == tags }, "\(ledger.snapshot())")
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.total, tags)
    for entry in snapshot.entries {
      XCTAssertEqual(entry.state, .delivered, "\(entry)")
      XCTAssertEqual(entry.provider, "segment")
      XCTAssertEqual(entry.answerStatus, 200)
      XCTAssertNotNil(entry.wirePosition)
      XCTAssertNotEqual(entry.wireSource, entry.device, "the SDK's wire source, not the inspector's")
    }
    XCTAssertEqual(snapshot.unexplained, [], "the SDK sent nothing the hub did not call")
    try await run.stop()
  }

  func testTheCallsTheSDKStillQueuedWhenItWasKilledAreLost() async throws {
    // A batch goes out at 5 messages; the 2 after it would wait an hour. The hub hands the SDK the
    // 2 only once the 5 are delivered: Segment's Swift SDK uploads whatever its queue holds when the
    // count triggers its flush, so 2 calls made at once would go with the batch.
    let run = try await DeliveryRun(uploadSize: 5, uploadInterval: 3600)
    let ledger = try XCTUnwrap(run.session.delivery)
    XCTAssertEqual(run.sendPlays(5, pausing: false), 5)
    XCTAssertTrue(run.child.waitUntilTaken(5), run.child.output)
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 5 }, "\(ledger.snapshot())")
    let tags = 5 + run.sendPlays(2, from: 5, pausing: false)
    XCTAssertTrue(run.child.waitUntilTaken(tags), run.child.output)
    XCTAssertTrue(eventually { ledger.callCount == tags }, "\(ledger.snapshot())")
    XCTAssertEqual(ledger.snapshot().count(.queued), 2)
    run.child.kill()
    try await run.stop()
    let snapshot = ledger.snapshot()
    XCTAssertEqual(snapshot.entries.map(\.state), Array(repeating: .delivered, count: 5) + [.lost, .lost])
    XCTAssertEqual(snapshot.entries.last?.reason, "the session ended before it was sent")
    XCTAssertEqual(HeadlessPrinter.deliveryLine(snapshot), "delivery: 7 calls · 5 delivered · 2 lost")
  }
}

/// A `listen` with a live session, a hub whose Segment calls go to the Python SDK child (its host
/// that `listen`), and the hub's inspector attached to the same `listen`.
private final class DeliveryRun: Sendable {
  let session: LiveSession
  let server: ListenServer
  let child: SegmentChild
  let hub: AnalyticsHub<PodcastTaxonomy>
  let inspector: Inspector
  let url: URL

  init(uploadSize: Int, uploadInterval: Double) async throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString).jsonl")
    session = LiveSession(store: try Recorder(url: url))
    server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    child = try SegmentChild(port: server.port, uploadSize: uploadSize, uploadInterval: uploadInterval)
    hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: PodcastMappings.providers(adapters: PodcastAdapters(segment: child), including: [Segment.id])
    )
    inspector = hub.attachDebugger(port: UInt16(server.port), app: "Podcasts", device: "QA")
  }

  /// Plays (and pauses) `count` podcasts of the catalogue from `first`; the number of tags.
  func sendPlays(_ count: Int, from first: Int = 0, pausing: Bool = true) -> Int {
    for podcast in Podcast.catalogue[first..<first + count] {
      hub.send(userAction: .playPodcast(podcast))
      if pausing { hub.send(userAction: .pausePodcast(podcast)) }
    }
    return pausing ? 2 * count : count
  }

  /// Everything flushed, then closed: the ledger's session ends.
  func stop() async throws {
    inspector.close()
    child.kill()
    try await server.shutdown()
    session.close()
    try? FileManager.default.removeItem(at: url)
  }
}

/// `scripts/sdk-clients/segment_ledger_client.py` as a hub's Segment adapter: each call one JSON line.
private final class SegmentChild: SDKAdapter, @unchecked Sendable {
  typealias Call = SegmentCall
  private let process = Process()
  private let input = Pipe()
  private let lines = LockedArray<String>()

  /// The Python SDK's client, or (outside CI) any executable taking the same arguments and lines
  /// named by `TAGSCOPE_SEGMENT_LEDGER_CLIENT`, such as one built on Segment's Swift SDK.
  init(port: Int, uploadSize: Int, uploadInterval: Double) throws {
    let arguments = ["127.0.0.1", String(port), String(uploadSize), String(uploadInterval)]
    if let client = ProcessInfo.processInfo.environment["TAGSCOPE_SEGMENT_LEDGER_CLIENT"] {
      process.executableURL = URL(fileURLWithPath: client)
      process.arguments = arguments
    } else {
      let python = packageRoot.appendingPathComponent(".venv/bin/python")
      guard FileManager.default.isExecutableFile(atPath: python.path) else {
        throw XCTSkip("!!! SKIPPING: \(python.path) is missing (scripts/sdk-clients/requirements.txt)")
      }
      process.executableURL = python
      process.arguments =
        [packageRoot.appendingPathComponent("scripts/sdk-clients/segment_ledger_client.py").path] + arguments
    }
    var environment = ProcessInfo.processInfo.environment
    environment["NO_PROXY"] = "*"
    environment["no_proxy"] = "*"
    process.environment = environment
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let reader = output.fileHandleForReading
    Thread { [lines] in
      var pending = Data()
      while case let data = reader.availableData, !data.isEmpty {
        pending += data
        while let end = pending.firstIndex(of: 10) {
          lines.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending = Data(pending[(end + 1)...])
        }
      }
    }.start()
  }

  func setup() {}

  func deliver(_ call: SegmentCall) throws {
    let line =
      "{\"method\":" + JSONText.quoted(call.method) + ",\"name\":" + JSONText.quoted(call.name ?? "")
      + ",\"properties\":" + Self.json(call.parameters) + "}\n"
    try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
  }

  /// Whether the SDK took `count` calls into its queue.
  func waitUntilTaken(_ count: Int) -> Bool { eventually { lines.all.contains("took \(count)") } }

  var output: String { lines.all.joined(separator: "\n") }

  func finishInput() { try? input.fileHandleForWriting.close() }

  func waitForExit() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }

  func kill() {
    if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }

  private static func json(_ properties: Properties) -> String {
    "{"
      + properties.map { key, value in
        let text: String
        switch value {
        case .string(let string): text = JSONText.quoted(string)
        case .int(let number): text = String(number)
        case .double(let number): text = String(number)
        case .bool(let flag): text = flag ? "true" : "false"
        default: text = "null"
        }
        return JSONText.quoted(key) + ":" + text
      }.joined(separator: ",") + "}"
  }
}
