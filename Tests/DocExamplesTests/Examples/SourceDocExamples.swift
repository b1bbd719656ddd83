// swift-format-ignore-file
// The Swift examples of the doc comments in Sources, verbatim (DocExampleCoverageTests checks that
// they are), each under the path of its file and inside what it needs: the podcast app they are
// written for, a `hub`, a test function. Not formatted: a copy must keep the comment's lines.

import AnalyticsHub
import AnalyticsHubTesting
import AnalyticsProviders
import Foundation
import TaggingPlanImport
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTimeline
import XCTest

// The podcast app of the doc comments.

struct Podcast: Sendable {
  var title: String
}

enum PodcastScreen: String, AnalyticsTag, Hashable {
  case podcasts, favorites
  var name: String { rawValue }
}

// Sources/AnalyticsHub/Tags.swift (AnalyticsTag)
enum PodcastAction: AnalyticsTag {
  case playPodcast(Podcast)
  var name: String { switch self { case .playPodcast: "playPodcast" } }
  var properties: Properties {
    switch self { case .playPodcast(let p): ["podcast_title": .string(p.title)] }
  }
}

enum PodcastTaxonomy: Taxonomy {
  typealias Screen = PodcastScreen
  typealias UserAction = PodcastAction
}

// Sources/AnalyticsProviders/Amplitude/AmplitudeCall.swift (AmplitudeAdapter)
struct AmplitudeSDK: AmplitudeAdapter, @unchecked Sendable {  // the SDK's client is thread-safe
  let amplitude: AmplitudeSwift.Amplitude  // plain `Amplitude` is AnalyticsProviders' namespace
  func track(eventType: String, eventProperties: Properties) {
    amplitude.track(eventType: eventType, eventProperties: eventProperties.foundationDictionary)
  }
  func identify(userProperties: Properties) {
    amplitude.identify(userProperties: userProperties.foundationDictionary)
  }
  func setUserId(userId: String?) { amplitude.setUserId(userId: userId) }
  func setDeviceId(deviceId: String) { amplitude.setDeviceId(deviceId: deviceId) }
  func setGroup(groupType: String, groupName: String) {
    amplitude.setGroup(groupType: groupType, groupName: groupName)
  }
  func revenue(productId: String, price: Double, quantity: Int) {
    let revenue = Revenue()
    revenue.productId = productId
    revenue.price = price
    revenue.quantity = quantity
    amplitude.revenue(revenue: revenue)
  }
  func setOptOut(_ optOut: Bool) { amplitude.optOut = optOut }
  func reset() { amplitude.reset() }
}

enum FirebaseDocExamples {
  // Sources/AnalyticsProviders/Firebase/FirebaseAdapter.swift (FirebaseAnalyticsAdapter)
  struct FirebaseSDK: FirebaseAnalyticsAdapter {
    func logEvent(_ name: String, parameters: Properties) {
      Analytics.logEvent(name, parameters: parameters.foundationDictionary)
    }
    func setUserProperty(_ value: String?, forName name: String) {
      Analytics.setUserProperty(value, forName: name)
    }
    func setUserID(_ id: String?) { Analytics.setUserID(id) }
    func setDefaultEventParameters(_ parameters: Properties) {
      Analytics.setDefaultEventParameters(parameters.foundationDictionary)
    }
    func setAnalyticsCollectionEnabled(_ enabled: Bool) { Analytics.setAnalyticsCollectionEnabled(enabled) }
    func setConsent(_ consent: FirebaseConsent) { /* Analytics.setConsent([.analyticsStorage: …]) */ }
    func resetAnalyticsData() { Analytics.resetAnalyticsData() }
  }

  // Sources/AnalyticsProviders/Firebase/Firebase.swift (Firebase)
  static func provider() -> Provider<PodcastTaxonomy> {
    let firebase: Provider<PodcastTaxonomy> = Firebase.provider(adapter: FirebaseSDK()) { tag, context in
      switch tag {
      case .screen(.podcasts): return [.screenView(name: "show_podcasts")]
      case .userAction(.playPodcast(let podcast)) where context.currentScreen == .favorites:
        return [.logEvent("play_podcast_from_favorites", ["podcast_title": .string(podcast.title)])]
      default: return []
      }
    }
    return firebase
  }
}

enum ToolDocExamples {
  // Sources/TagscopeTimeline/RecordingReader.swift (RecordingReader): compiled, not run (it reads
  // session.jsonl in the current directory).
  static func readRecording() throws {
    let reader = try RecordingReader(path: "session.jsonl")  // "-" reads standard input
    while let entry = try reader.next() {
      switch entry {
      case .record(let record, _): print(record.seq, record.name)
      case .dropped(let marker, _): print("lost", marker.count)
      case .problem(let problem): print(problem.reason)
      }
    }
  }
}

final class SourceDocExampleTests: XCTestCase {
  private let podcast = Podcast(title: "Swift by Sundell")

  // Sources/AnalyticsHubTesting/TestSupport.swift (TestAdapter)
  func testTestAdapterExample() throws {
    let hub = try AnalyticsHub<PodcastTaxonomy>()
    let firebaseMapping: Mapping<PodcastTaxonomy, FirebaseCall> = { tag, context in
      guard case .userAction(.playPodcast(let podcast)) = tag, context.currentScreen == .favorites else { return [] }
      return [.logEvent("play_podcast_from_favorites", ["podcast_title": .string(podcast.title)])]
    }
    hub.send(screen: .favorites)
    let firebase = TestAdapter<FirebaseCall>()
    try hub.register(Firebase.provider(adapter: firebase, mapping: firebaseMapping))
    let dispatches = DispatchRecorder(observing: hub)  // rules are checked while the hub is observed
    hub.send(userAction: .playPodcast(podcast))
    hub.flush()  // every tag sent so far has reached its adapters
    XCTAssertEqual(firebase.names.last, "play_podcast_from_favorites")
    try dispatches.assertNoRuleViolations()  // fails naming each provider, rule and message
  }

  // Sources/AnalyticsHubTesting/RuleViolations.swift (DispatchRecorder.assertNoRuleViolations)
  func testAssertNoRuleViolationsExample() throws {
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: [FirebaseDocExamples.provider()])
    let dispatches = DispatchRecorder(observing: hub)
    hub.send(screen: .podcasts)
    hub.flush()
    try dispatches.assertNoRuleViolations()
    XCTAssertNoThrow(try dispatches.assertNoRuleViolations(provider: Vendors.firebase))  // a non-throwing test
  }

  func testFirebaseExamplesMapAndDeliverToTheSDK() throws {
    _ = SDKCallLog.shared.take()
    let hub = try AnalyticsHub<PodcastTaxonomy>(providers: [FirebaseDocExamples.provider()])
    let dispatches = DispatchRecorder(observing: hub)
    hub.send(screen: .podcasts)
    hub.send(userAction: .playPodcast(podcast))
    hub.send(screen: .favorites)
    hub.send(userAction: .playPodcast(podcast))
    hub.flush()
    XCTAssertEqual(
      SDKCallLog.shared.take(),
      ["logEvent screen_view [\"screen_name\"]", "logEvent play_podcast_from_favorites [\"podcast_title\"]"])
    try dispatches.assertNoRuleViolations()
  }

  func testAmplitudeAdapterExampleCallsTheSDK() {
    _ = SDKCallLog.shared.take()
    let sdk = AmplitudeSDK(amplitude: AmplitudeClient())
    sdk.deliver(.track(eventType: "Play Podcast", eventProperties: ["podcast_title": "Swift by Sundell"]))
    sdk.deliver(.revenue(productId: "premium", price: 4.99, quantity: 2))
    sdk.deliver(.setOptOut(true))
    XCTAssertEqual(SDKCallLog.shared.take(), ["track Play Podcast [\"podcast_title\"]", "revenue premium 4.99 2"])
    XCTAssertTrue(sdk.amplitude.optOut)
  }

  // Sources/TaggingPlanImport/PlanImporter.swift (PlanImporter)
  func testPlanImporterExample() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doc-example-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let previous = FileManager.default.currentDirectoryPath
    defer {
      _ = FileManager.default.changeCurrentDirectoryPath(previous)
      try? FileManager.default.removeItem(at: directory)
    }
    let source = #"{"display_name": "Shop", "rules": {"events": [{"name": "Order Completed", "rules": {"properties": {"properties": {"properties": {"total": {"type": "number", "x-owner": "growth"}}}}}}]}}"#
    try Data(source.utf8).write(to: directory.appendingPathComponent("plan.json"))
    _ = FileManager.default.changeCurrentDirectoryPath(directory.path)
    let plan = try PlanImporter.run(paths: ["plan.json"], options: ImportOptions(format: .segment))
    print(plan.yaml)                      // the plan; plan.warnings: what it does not carry
    XCTAssertTrue(plan.yaml.contains("Order Completed:"))
    XCTAssertEqual(plan.warnings.count, 1)
  }

  // Sources/TagscopeInspector/Inspector.swift (Inspector)
  func testInspectorExample() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("doc-example-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let hub = try AnalyticsHub<PodcastTaxonomy>()
    let recorder = try Recorder(url: url, header: RecordingHeader(app: "Podcasts", started: Date()))
    let inspector = Inspector(sinks: [recorder])
    hub.addObserver(inspector)
    // … the app runs
    inspector.close()  // flushes and closes the sinks
    let reader = try RecordingReader(url: url)
    XCTAssertEqual(reader.header.app, "Podcasts")
  }

  // Sources/TagscopeServer/Server/ListenServer.swift (ListenServer)
  func testListenServerExample() async throws {
    let timeline = try Timeline.live()
    defer { timeline.release(keepTemporary: false) }
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0)) { event in
      if case .records(let records) = event { for record in records { try? timeline.append(record) } }
    }
    print("listening on", server.port)
    XCTAssertGreaterThan(server.port, 0)
    try await server.shutdown()
  }

  // Sources/TagscopeLive/LiveSession.swift (LiveSession)
  func testLiveSessionExample() async throws {
    let timeline = try Timeline.live()
    defer { timeline.release(keepTemporary: false) }
    let checker: PlanChecker? = nil
    let wakeup = DispatchSemaphore(value: 0)
    let configuration = ListenConfiguration(port: 0)
    let session = LiveSession(store: timeline, checker: checker) { _ in wakeup.signal() }
    let server = try await ListenServer.start(configuration: configuration, ingest: session)
    // … until the user quits
    try await server.shutdown()
    session.close()  // everything the server took is in the recording
  }
}

// Sources/AnalyticsHub/LargeInteger.swift (LargeInteger)
enum LargeIntegerDocExample {
  static func example() {
let value = PropertyValue.integer(digits: "18446744073709551616")  // .largeInteger
let small = PropertyValue.integer(digits: "42")  // .int(42)
    _ = (value, small)
  }
}

// Sources/TagscopeLive/Delivery/DeliveryLedger.swift (DeliveryLedger)
enum DeliveryLedgerDocExample {
  static func example(inAppRecord: Record, wireRecord: Record) {
let ledger = DeliveryLedger()
ledger.observe([inAppRecord, wireRecord], firstPosition: 0)
let counts = ledger.snapshot().counts  // [.delivered: 1]
    _ = counts
  }
}
