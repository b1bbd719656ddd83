import AnalyticsHub
import AnalyticsProviders
import Foundation
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 46 with the official Python SDKs of two of the hub's providers, Amplitude and Mixpanel:
/// a test client writes the app's in-app records to `listen` over the inspector's own transport
/// (as `attachDebugger` does), the SDK in a child process sends what it is told to the same
/// `listen`, and each call's ledger entry says what really happened to it: delivered, two
/// identical calls in one window ambiguous (never guessed), a call the SDK never sent queued and
/// then lost when the session ends, and a call the SDK sent behind the hub's back unexplained.
final class SDKDeliveryLedgerTests: XCTestCase {
  func testAmplitudesSDK() async throws {
    try await checkTheLedger(sdk: "amplitude", provider: "amplitude") { name, properties in
      AmplitudeCall.track(eventType: name, eventProperties: properties)
    }
  }

  func testMixpanelsSDK() async throws {
    try await checkTheLedger(sdk: "mixpanel", provider: "mixpanel") { name, properties in
      MixpanelCall.track(event: name, properties: properties)
    }
  }

  /// Two devices, two users, the same call at the same time: each is joined with its own user's
  /// SDK request, neither is ambiguous (the rule's "the same user when both say").
  func testTwoDevicesIdenticalCallsAreEachJoinedWithTheirOwnUsersSDK() async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "two-devices-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let session = LiveSession(store: try Recorder(url: directory.appendingPathComponent("ledger.jsonl")))
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let ledger = try XCTUnwrap(session.delivery)
    let properties: Properties = ["podcast_title": "Swift by Sundell"]
    let call = MixpanelCall.track(event: "Play Podcast", properties: properties)
    let provider = Mixpanel.id.rawValue
    var apps: [RemoteSink] = []
    var children: [SDKChild] = []
    for number in 1...2 {
      let app = RemoteSink(
        host: "127.0.0.1", port: UInt16(server.port),
        header: RecordingHeader(app: "Podcasts", device: "QA-\(number)", started: Date()))
      let user = RecordSession(id: "session-\(number)", state: "authenticated", user: "user-\(number)")
      app.send(
        Record(
          seq: 1, time: Date(), kind: .event, name: "Play Podcast", properties: properties,
          context: RecordContext(session: user),
          outputs: [
            ProviderOutput(
              provider: provider, status: .sent,
              calls: [CallDescription(method: call.method, name: call.name, parameters: call.parameters)])
          ]))
      app.flush()
      apps.append(app)
      children.append(try SDKChild(sdk: provider, port: server.port, user: "user-\(number)"))
    }
    XCTAssertTrue(eventually { ledger.callCount == 2 }, "\(ledger.snapshot())")
    for child in children {
      try child.send("track", name: "Play Podcast", properties: properties)
      child.finishInput()
      XCTAssertEqual(child.waitForExit(), 0, child.output)
    }
    XCTAssertTrue(eventually { ledger.snapshot().count(.delivered) == 2 }, "\(ledger.snapshot())")
    let entries = ledger.snapshot().entries
    XCTAssertEqual(entries.map(\.device).sorted(), ["Podcasts@QA-1", "Podcasts@QA-2"])
    for entry in entries {
      let number = try XCTUnwrap(entry.device.last)
      XCTAssertEqual(entry.wireSource, "\(provider)@user-\(number)", "\(entry)")
    }
    for app in apps { app.close() }
    try await server.shutdown()
    session.close()
  }

  private func checkTheLedger(
    sdk: String, provider: String, call: (String, Properties) -> some ProviderCall,
    file: StaticString = #filePath, line: UInt = #line
  ) async throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "sdk-ledger-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let session = LiveSession(store: try Recorder(url: directory.appendingPathComponent("ledger.jsonl")))
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let ledger = try XCTUnwrap(session.delivery, file: file, line: line)
    let child = try SDKChild(sdk: sdk, port: server.port)

    // The app's calls: two the SDK sends, two identical ones in one window (both sent), one the
    // SDK never sends.
    let play: (String, Properties) = (
      "Play Podcast", ["podcast_title": "Swift by Sundell", "podcast_duration": 1830]
    )
    let pause: (String, Properties) = ("Pause Podcast", ["position": 12.5])
    let share: (String, Properties) = ("Share Podcast", ["podcast_title": "Swift by Sundell"])
    let rate: (String, Properties) = ("Rate Podcast", ["stars": 5])
    let app = RemoteSink(
      host: "127.0.0.1", port: UInt16(server.port),
      header: RecordingHeader(app: "Podcasts", device: "QA", started: Date()))
    for (seq, (name, properties)) in [play, pause, share, share, rate].enumerated() {
      let description = call(name, properties)
      let output = ProviderOutput(
        provider: provider, status: .sent,
        calls: [
          CallDescription(
            method: description.method, name: description.name, parameters: description.parameters)
        ])
      app.send(
        Record(
          seq: UInt64(seq + 1), time: Date(), kind: .event, name: name, properties: properties,
          outputs: [output]))
    }
    app.flush()
    XCTAssertTrue(eventually { ledger.callCount == 5 }, "\(ledger.snapshot())", file: file, line: line)
    // Nothing of the provider reached listen yet; the pair is ambiguous from the start.
    XCTAssertEqual(
      ledger.snapshot().entries.map(\.state),
      [.noWireSource, .noWireSource, .ambiguous, .ambiguous, .noWireSource],
      file: file, line: line)

    // What the SDK sends: the two, the pair, and one event the app never asked for.
    let behind: (String, Properties) = ("Behind The Hub", ["source": "automatic"])
    let sent = [play, pause, share, share, behind]
    for (name, properties) in sent {
      try child.send("track", name: name, properties: properties)
    }
    XCTAssertTrue(child.waitUntilTaken(sent.count), child.output, file: file, line: line)
    child.finishInput()
    XCTAssertEqual(child.waitForExit(), 0, child.output, file: file, line: line)
    XCTAssertTrue(
      eventually { ledger.snapshot().count(.delivered) == 2 && ledger.snapshot().count(.ambiguous) == 2 },
      "\(ledger.snapshot())", file: file, line: line)
    XCTAssertTrue(
      eventually { ledger.snapshot().unexplainedCount == 1 }, "\(ledger.snapshot())", file: file, line: line)
    let live = ledger.snapshot()
    XCTAssertEqual(
      live.entries.map(\.state), [.delivered, .delivered, .ambiguous, .ambiguous, .queued], "\(live)",
      file: file, line: line)
    XCTAssertTrue(
      live.entries.allSatisfy { $0.provider == provider && $0.device == "Podcasts@QA" }, file: file,
      line: line)
    let delivered = live.entries.filter { $0.state == .delivered }
    XCTAssertTrue(
      delivered.allSatisfy {
        $0.answerStatus == 200 && $0.wireSource != nil && $0.wireSource != "Podcasts@QA"
      },
      "\(delivered)", file: file, line: line)
    let ambiguous = live.entries.filter { $0.state == .ambiguous }
    XCTAssertEqual(
      ambiguous.map { $0.candidates.count }, [2, 2], "either call could be either request", file: file,
      line: line)
    XCTAssertEqual(ambiguous[0].candidates, ambiguous[1].candidates, file: file, line: line)
    XCTAssertEqual(live.unexplained.map(\.name), ["Behind The Hub"], file: file, line: line)
    XCTAssertEqual(live.unexplained.map(\.provider), [provider], file: file, line: line)

    app.close()
    try await server.shutdown()
    session.close()
    let ended = ledger.snapshot()
    XCTAssertEqual(ended.entries.last?.name, "Rate Podcast", file: file, line: line)
    XCTAssertEqual(ended.entries.last?.state, .lost, file: file, line: line)
    XCTAssertEqual(ended.entries.last?.reason, "the session ended before it was sent", file: file, line: line)
  }
}
