import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TagscopeInspector
import TagscopeLive
import TagscopeRecording

@testable import TagscopeServer

/// A `listen` with a live session, a hub whose Segment calls go to the official Python SDK in a
/// child process, and the hub's inspector attached to the same `listen`. The SDK's host is that
/// `listen`, or, with a vendor, its production host reached through the `listen`'s proxy, which
/// forwards to the vendor and relays its answers.
final class SegmentDeliveryRun: Sendable {
  let session: LiveSession
  let server: ListenServer
  let child: SDKChild
  let hub: AnalyticsHub<PodcastTaxonomy>
  let inspector: Inspector
  let directory: URL

  /// The SDK batches `uploadSize` calls or what it holds every `uploadInterval` seconds; through
  /// the proxy in front of `vendor` when one is given.
  init(uploadSize: Int, uploadInterval: Double, vendor: VendorServer? = nil, directory: URL? = nil)
    async throws
  {
    self.directory =
      directory
      ?? FileManager.default.temporaryDirectory.appendingPathComponent("delivery-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: self.directory, withIntermediateDirectories: true)
    session = LiveSession(store: try Recorder(url: self.directory.appendingPathComponent("delivery.jsonl")))
    if let vendor {
      let authority = self.directory.appendingPathComponent("proxy-ca")
      server = try await ListenServer.start(
        configuration: vendor.proxyConfiguration(authorityDirectory: authority, forward: true),
        ingest: session)
      child = try SDKChild(
        proxyPort: server.proxyPort ?? 0, caFile: authority.appendingPathComponent("ca.pem").path,
        uploadSize: uploadSize, uploadInterval: uploadInterval)
    } else {
      server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
      child = try SDKChild(port: server.port, uploadSize: uploadSize, uploadInterval: uploadInterval)
    }
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
    try? FileManager.default.removeItem(at: directory)
  }
}
