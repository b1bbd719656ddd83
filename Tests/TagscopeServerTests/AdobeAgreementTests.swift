import AnalyticsHub
import AnalyticsProviders
import Foundation
import PodcastDemo
import TaggingPlan
import TagscopeDiff
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// The same demo calls to Adobe seen in the app (the hub's recording of its ``AdobeCall``s) and
/// on the wire (the hits the Analytics extension sends for them, recorded by a real `listen`)
/// agree: `tagscope diff` (TagscopeDiff) finds no change on the calls both hold, so one plan
/// judges both.
final class AdobeAgreementTests: XCTestCase {
  /// The SDK as an app plugs it in: each call becomes the hit the Analytics extension sends for
  /// it (``AdobeWireFixtures/hit(method:name:contextData:ecid:time:)``), kept to send to `listen`.
  private final class HitWriter: AdobeAdapter, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [String] = []
    var hits: [String] { lock.withLock { stored } }

    private func keep(_ method: String, _ name: String, _ data: [String: String]) {
      lock.withLock {
        stored.append(
          AdobeWireFixtures.hit(
            method: method, name: name, contextData: data, ecid: "ecid-42", time: 1_764_400_000 + stored.count
          ))
      }
    }

    func trackState(_ state: String, data: [String: String]) { keep("trackState", state, data) }
    func trackAction(_ action: String, data: [String: String]) { keep("trackAction", action, data) }
    func setPrivacyStatus(_ status: AdobePrivacyStatus) {}
    func syncIdentifier(type: String, identifier: String, authenticated: Bool) {}
  }

  /// Keeps the records an inspector hands it.
  private final class Records: RecordSink, @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [Record] = []
    var records: [Record] { lock.withLock { stored } }
    func receive(_ items: [SinkItem]) {
      lock.withLock {
        for case .record(let record, _) in items { stored.append(record) }
      }
    }
    func flush() {}
    func close() {}
  }

  /// An app's Adobe mapping of the demo's tags: screens as states, actions with their properties
  /// as context data (`asText`: written as the text Analytics keeps, else as the demo types them).
  private static func mapping(asText: Bool) -> Mapping<PodcastTaxonomy, AdobeCall> {
    { tag, _ in
      func data(_ properties: Properties) -> Properties {
        asText
          ? Properties(
            Adobe.contextData(properties).sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
          : properties
      }
      switch tag {
      case .screen(let screen): return [.trackState(screen.name, contextData: [:])]
      case .userAction(let action): return [.trackAction(action.name, contextData: data(action.properties))]
      default: return []
      }
    }
  }

  /// The demo's journey through a hub with Adobe: its in-app records and the hits its SDK sent.
  private func journey(asText: Bool) throws -> (inApp: [Record], hits: [String]) {
    let writer = HitWriter()
    let sink = Records()
    let inspector = Inspector(sinks: [sink])
    let hub = try AnalyticsHub<PodcastTaxonomy>(
      providers: [Adobe.provider(adapter: writer, mapping: Self.mapping(asText: asText))])
    hub.addObserver(inspector)
    let podcast = Podcast.catalogue[0]
    hub.send(screen: .podcasts)
    hub.send(userAction: .openPodcast(podcast))
    hub.send(screen: .podcastPlayer)
    hub.send(userAction: .downloadPodcast(podcast))
    hub.send(screen: .favorites)
    hub.send(userAction: .addPodcastToFavorite(Podcast.catalogue[1]))
    hub.flush()
    inspector.flush()
    inspector.close()
    XCTAssertTrue(eventually { sink.records.count == 6 })
    return (sink.records, writer.hits)
  }

  /// Each Adobe call of `records` as a record of its own (`method name`, the call alone), so the
  /// two recordings are compared call by call: the hub's record names the tag (`playPodcast`),
  /// the wire's the call (what the SDK sent).
  private func callsProfile(_ records: [Record]) -> RecordingProfile {
    var profile = RecordingProfile()
    for record in records {
      for output in record.outputs where output.provider == "adobe" {
        for call in output.calls {
          profile.add(
            Record(
              seq: record.seq, time: Date(timeIntervalSince1970: 0), kind: .event,
              name: "\(call.method) \(call.name ?? "")",
              outputs: [ProviderOutput(provider: "adobe", status: .sent, calls: [call])]))
        }
      }
    }
    return profile
  }

  private func wireRecords(_ hits: [String]) async throws -> [Record] {
    let (server, collector) = try await startServer()
    for body in hits {
      let reply = try httpRequest(
        port: server.port, path: AdobeWireFixtures.hitPath, contentType: "application/x-www-form-urlencoded",
        body: body)
      XCTAssertEqual(reply?.status, 200)
    }
    let records = collector.waitForRecords(hits.count)
    try await server.shutdown()
    return records
  }

  func testTheHubsAdobeCallsAndTheirHitsAgree() async throws {
    let (inApp, hits) = try journey(asText: true)
    XCTAssertEqual(hits.count, 6)
    let wire = try await wireRecords(hits)
    XCTAssertEqual(wire.count, 6)
    let diff = RecordingDiff(base: callsProfile(inApp), new: callsProfile(wire))
    XCTAssertEqual(diff.baseTags, 6)
    XCTAssertEqual(diff.findings.map { "\($0.change) \($0.tag) \($0.path ?? "")" }, [])
    // Values too, beyond what diff compares (types): the calls are equal, call for call.
    XCTAssertEqual(
      wire.compactMap { $0.outputs.first?.calls.first },
      inApp.compactMap { $0.outputs.first { $0.provider == "adobe" }?.calls.first })
  }

  /// One plan judges both: a catalogue of Adobe's calls (the app's context data as the calls'
  /// parameters, as the registry says Adobe's messages hold them; `valuesAsText`, as Adobe's SDK
  /// sends context data as text) finds the same planted mistake on the same calls of the hub's
  /// recording and of the wire's, and nothing else on either.
  func testOnePlanJudgesTheHubsCallsAndTheirHitsAlike() async throws {
    let (inApp, hits) = try journey(asText: false)
    let wire = try await wireRecords(hits)
    let plan = try PlanLoader.load(
      yaml: """
        plan: Podcasts on Adobe
        version: 1
        catalogues:
          adobe:
            valuesAsText: true
            calls:
              podcasts: {method: trackState}
              podcastPlayer: {method: trackState}
              favorites: {method: trackState}
              openPodcast:
                method: trackAction
                params:
                  podcast_id: {type: string, required: true}
                  podcast_title: {type: string, required: true}
                  podcast_duration: {type: integer, minimum: 0}
                  podcast_rating: {type: integer, required: true}
              downloadPodcast:
                method: trackAction
                params: {podcast_size: {type: integer, minimum: 1}}
              addPodcastToFavorite: {method: trackAction, params: [podcast_title]}
        """, file: "adobe.yaml")
    func judged(_ records: [Record]) -> [String] {
      var validator = PlanValidator(plan: plan)
      return records.flatMap { record in
        validator.validate(record).map {
          "\($0.rule.rawValue) \($0.provider ?? "-") \(record.outputs.first { $0.provider == "adobe" }?.calls.first?.name ?? "")"
        }
      }
    }
    XCTAssertEqual(judged(inApp), ["missing-param adobe openPodcast"])
    XCTAssertEqual(judged(wire), judged(inApp))
  }

  /// The demo types a podcast's duration and size as integers; Adobe's SDK takes context data as
  /// text (``Adobe/contextData(_:)``), so on the wire they are text: the only changes diff
  /// reports, the types of those parameters.
  func testNumbersTheSDKTakesAsTextAreTheOnlyChange() async throws {
    let (inApp, hits) = try journey(asText: false)
    let wire = try await wireRecords(hits)
    let diff = RecordingDiff(base: callsProfile(inApp), new: callsProfile(wire))
    let changes = Set(
      diff.findings.map { "\($0.change.rawValue) \($0.path ?? "") \($0.base ?? "")→\($0.new ?? "")" })
    XCTAssertEqual(
      changes, ["param-type podcast_duration number→string", "param-type podcast_size number→string"])
  }
}
