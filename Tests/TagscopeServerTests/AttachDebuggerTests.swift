import AnalyticsHub
import Foundation
import PodcastDemo
import TagscopeInspector
import XCTest

@testable import TagscopeServer

/// `hub.attachDebugger(…)`, the one line an app's debug build adds, against a real `listen`: the
/// records arrive named with the app and the device, the platform's names when none are given.
final class AttachDebuggerTests: XCTestCase {
  func testOneLineStreamsTheHubToListenNamedWithTheGivenAppAndDevice() async throws {
    let (server, collector) = try await startServer(ListenConfiguration(port: 0, token: "T"))
    let hub = try AnalyticsHub<PodcastTaxonomy>()
    let inspector = hub.attachDebugger(
      host: "127.0.0.1", port: UInt16(server.port), token: "T", app: "Podcasts", device: "QA iPhone")
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    hub.send(userAction: .pausePodcast(podcast))
    let records = collector.waitForRecords(3)
    inspector.close()
    try await server.shutdown()
    XCTAssertEqual(records.map(\.name), ["podcasts", "playPodcast", "pausePodcast"])
    XCTAssertEqual(Set(records.map(\.source)), ["Podcasts@QA iPhone"])
  }

  func testWithoutNamesTheRecordsCarryThePlatformsAppAndDevice() async throws {
    let (server, collector) = try await startServer()
    let hub = try AnalyticsHub<PodcastTaxonomy>()
    let inspector = hub.attachDebugger(port: UInt16(server.port))
    hub.send(screen: .favorites)
    let records = collector.waitForRecords(1)
    inspector.close()
    try await server.shutdown()
    let expected = "\(PlatformIdentity.appName)@\(PlatformIdentity.deviceName)"
    XCTAssertEqual(records.map(\.source), [expected])
    XCTAssertFalse(PlatformIdentity.appName.isEmpty)
    #if os(Linux)
      // Off Apple platforms the device is the host name.
      XCTAssertEqual(PlatformIdentity.deviceName, ProcessInfo.processInfo.hostName)
    #endif
  }

}
