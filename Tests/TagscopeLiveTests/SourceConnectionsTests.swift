import Foundation
import NIOConcurrencyHelpers
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import XCTest

/// Issue 12: listen's sources as the Sources view shows them — connected, disconnected since…,
/// and the gap a reconnecting RemoteSink leaves in its stream.
final class SourceConnectionsTests: XCTestCase {
  func testConnectionsDisconnectionsAndGaps() {
    let clock = NIOLockedValueBox(Date(timeIntervalSince1970: 1_000))
    let connections = SourceConnections(now: { clock.withLockedValue { $0 } })
    let header = RecordingHeader(app: "Podcasts", device: "iPhone 15")
    connections.note([.sourceConnected(source: "Podcasts@iPhone 15", header: header)])
    clock.withLockedValue { $0 = Date(timeIntervalSince1970: 1_010) }
    connections.note([
      .sourceConnected(
        source: "segment@127.0.0.1", header: RecordingHeader(app: "segment", device: "127.0.0.1")),
      .sourceDisconnected(source: "Podcasts@iPhone 15"),
    ])
    var snapshot = connections.snapshot()
    XCTAssertEqual(
      snapshot.map(\.name), ["Podcasts@iPhone 15", "segment@127.0.0.1"], "in the order first seen")
    XCTAssertEqual(snapshot[0].connected, false)
    XCTAssertEqual(snapshot[0].since, Date(timeIntervalSince1970: 1_010), "disconnected since")
    XCTAssertEqual(snapshot[0].app, "Podcasts")
    XCTAssertEqual(snapshot[0].device, "iPhone 15")
    XCTAssertEqual(snapshot[1].connected, true)
    // The sink comes back after a 12 s backoff: one gap, 10:10 to 10:22.
    clock.withLockedValue { $0 = Date(timeIntervalSince1970: 1_022) }
    connections.note([.sourceConnected(source: "Podcasts@iPhone 15", header: header)])
    snapshot = connections.snapshot()
    XCTAssertEqual(snapshot[0].connected, true)
    XCTAssertEqual(snapshot[0].reconnections, 1)
    XCTAssertEqual(
      snapshot[0].lastGap, Date(timeIntervalSince1970: 1_010)...Date(timeIntervalSince1970: 1_022))
    // A second disconnect of an already disconnected source changes nothing.
    connections.note([.sourceDisconnected(source: "nobody"), .records([])])
    XCTAssertEqual(connections.snapshot().count, 2)
  }
}
