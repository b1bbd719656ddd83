import AnalyticsHub
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

/// The native path end to end: a real hub with the inspector's RemoteSink streaming to a real
/// server, as an app on a phone or simulator would.
final class RemoteSinkTests: XCTestCase {
  func testHubThroughRemoteSinkArrivesInOrderWithItsSource() async throws {
    let (server, collector) = try await startServer()
    let sink = RemoteSink(
      host: "127.0.0.1", port: UInt16(server.port),
      header: RecordingHeader(app: "Podcasts", device: "iPhone 15 (sim)", started: Date()))
    let inspector = Inspector(sinks: [sink])
    let hub = try AnalyticsHub<PodcastTaxonomy>()
    hub.addObserver(inspector)
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    hub.send(screen: .favorites)
    hub.send(userAction: .addPodcastToFavorite(podcast))
    for _ in 0..<200 { hub.send(userAction: .pausePodcast(podcast)) }
    inspector.flush()
    let records = collector.waitForRecords(204)
    hub.flush()
    inspector.close()
    try await server.shutdown()
    XCTAssertEqual(records.count, 204)
    XCTAssertEqual(
      records.prefix(4).map(\.name), ["podcasts", "playPodcast", "favorites", "addPodcastToFavorite"])
    XCTAssertEqual(records.map(\.seq), (1...204).map(UInt64.init))
    XCTAssertTrue(records.allSatisfy { $0.source == "Podcasts@iPhone 15 (sim)" })
    XCTAssertEqual(records[1].kind, .userAction)
    XCTAssertEqual(records[1].properties["podcast_title"], .string(podcast.title))
    XCTAssertEqual(records[3].context.screen, "favorites")
  }

  func testAHeartbeatKeepsAQuietAppsStreamOpenPastTheIdleTimeout() async throws {
    var configuration = ListenConfiguration(port: 0)
    configuration.nativeIdleTimeout = .milliseconds(400)
    let (server, collector) = try await startServer(configuration)
    let quiet = RemoteSink(host: "127.0.0.1", port: UInt16(server.port), heartbeat: 0.1)
    let silent = RemoteSink(host: "127.0.0.1", port: UInt16(server.port), heartbeat: 3_600)
    // The quiet app's record comes first: without heartbeats its stream would idle out first.
    quiet.send(Record(seq: 1, time: Date(), kind: .screen, name: "quiet"))
    collector.waitForRecords(1)
    silent.send(Record(seq: 1, time: Date(), kind: .screen, name: "silent"))
    collector.waitForRecords(2)
    XCTAssertTrue(eventually { server.statistics.timeouts[.nativeIdle] == 1 }, "the silent stream idles out")
    XCTAssertEqual(server.statistics.timeouts[.nativeIdle], 1, "only the stream without heartbeats idles out")
    XCTAssertEqual(quiet.connectionCount, 1, "never reconnected")
    quiet.send(Record(seq: 2, time: Date(), kind: .screen, name: "later"))
    let records = collector.waitForRecords(3)
    XCTAssertEqual(records.last?.name, "later")
    quiet.close()
    silent.close()
    try await server.shutdown()
    XCTAssertEqual(server.statistics.rejected[.badLine] ?? 0, 0, "an empty line is not a bad line")
  }

  func testTheServerClosesIdleNativeStreamsByDefault() {
    XCTAssertEqual(ListenConfiguration().nativeIdleTimeout, .seconds(60))
    XCTAssertLessThan(RemoteSink.defaultHeartbeat * 2, 60)
  }
}
