import Foundation
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Issue 31, acknowledgements that mean durable: an SDK request gets its `200` only once its records
/// are written and fsynced, and one fsync covers the requests of one batch (group commit).
final class DurableReplyTests: XCTestCase {
  func testSDKRepliesComeOnlyAfterTheWriteAndOneFsyncCoversManyRequests() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let queued = StoredCounting(session)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: queued)
    let replies = LockedArray<Int>()
    let requests = 20
    let clients = try (0..<requests).map { _ in try RawClient(port: server.port) }
    for (index, client) in clients.enumerated() {
      let body = #"{"writeKey":"k","type":"track","userId":"u\#(index)","event":"Durable"}"#
      let request =
        "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
      Thread {
        client.send(request)
        replies.append(client.readResponse()?.status ?? -1)
      }.start()
    }
    // Every request was queued whole (its records, then its wait for them: a request is counted
    // accepted just before its records are handed on) and the worker waits at the closed store
    // with the first batch.
    XCTAssertTrue(eventually { queued.count == requests && store.batchCount >= 1 })
    XCTAssertEqual(replies.all, [], "no reply before the records are written")
    XCTAssertEqual(store.syncCount, 0)
    store.setOpen(true)
    XCTAssertTrue(eventually { replies.all.count == requests }, "\(replies.all)")
    XCTAssertEqual(replies.all, Array(repeating: 200, count: requests))
    XCTAssertGreaterThanOrEqual(store.syncCount, 1, "an fsync before the replies")
    XCTAssertLessThanOrEqual(store.syncCount, 2, "group commit: the batch at the gate, then all the rest")
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).count, requests)
  }

  /// A disk slower than the request timeout (tiny here): the SDK gets `503` + `Retry-After`
  /// rather than a silent close; the records, written once the disk takes them, are in the
  /// recording once and counted once.
  func testADiskSlowerThanTheRequestTimeoutAnswers503AndStillWritesTheRecordsOnce() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .seconds(1)), ingest: session)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Slow"}"#
    let (status, headers) = try RawClient.exchange(
      server.port,
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nConnection: close\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertEqual(status, 503)
    XCTAssertEqual(headers["retry-after"], "1")
    XCTAssertEqual(store.batchCount, 1, "the write is still held at the gate")
    XCTAssertEqual(server.statistics.timeouts[.request], 1)
    store.setOpen(true)
    session.flush()
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.name), ["Slow"], "written once, after the reply")
    XCTAssertEqual(server.statistics.accepted, 1)
  }

  /// The SDK's retry of a request answered `503` while its records were still being written is
  /// skipped (each message once, counted and reported), but the same message sent again after
  /// the retry got its `200` is recorded: a real duplicate stays visible. GA4's Measurement
  /// Protocol, which sends no message id, is known by its payload.
  func testTheRetryOfARequestAnswered503AfterItWasTakenIsRecordedOnce() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let problems = LockedArray<String>()
    session.addObserver { update in
      for case .problem(_, let message) in update.events { problems.append(message) }
    }
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .seconds(1)), ingest: session)
    func post(_ path: String, _ body: String, retry: Int = 0) throws -> Int? {
      try httpRequest(
        port: server.port, path: path, headers: retry > 0 ? ["X-Retry-Count: \(retry)"] : [], body: body)?
        .status
    }
    // Segment's batch as analytics-python sends it: the same messageIds, a new sentAt per attempt.
    func segment(_ sentAt: String) -> String {
      #"{"batch":[{"type":"track","userId":"u","event":"Once","messageId":"m-1"},"#
        + #"{"type":"track","userId":"u","event":"Twice","messageId":"m-2"}],"#
        + #""sentAt":"\#(sentAt)","writeKey":"k"}"#
    }
    let ga4 = #"{"client_id":"c.1","events":[{"name":"level_up","params":{"level":2}}]}"#
    XCTAssertEqual(try post("/v1/batch", segment("2026-11-26T02:00:00Z")), 503)
    XCTAssertEqual(try post("/mp/collect?measurement_id=G-1&api_secret=s", ga4), 503)
    store.setOpen(true)
    XCTAssertEqual(try post("/v1/batch", segment("2026-11-26T02:00:01Z"), retry: 1), 200)
    XCTAssertEqual(try post("/mp/collect?measurement_id=G-1&api_secret=s", ga4), 204)
    XCTAssertEqual(server.statistics.retriesSkipped, 3)
    // The app really sends m-2 again, and the GA4 event: recorded, not taken for retries.
    let again = #"{"batch":[{"type":"track","userId":"u","event":"Twice","messageId":"m-2"}],"writeKey":"k"}"#
    XCTAssertEqual(try post("/v1/batch", again), 200)
    XCTAssertEqual(try post("/mp/collect?measurement_id=G-1&api_secret=s", ga4), 204)
    session.flush()
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(
      try recordedRecords(url).map(\.name), ["Once", "Twice", "level_up", "Twice", "level_up"],
      "each message once, the app's own resends again")
    XCTAssertEqual(server.statistics.retriesSkipped, 3)
    XCTAssertTrue(
      server.statistics.summary.contains("3 SDK records resent after a 503"), server.statistics.summary)
    XCTAssertTrue(
      problems.all.contains { $0.contains("2 messages already taken from a request answered 503") },
      "\(problems.all)")
  }

  /// mParticle's ids: its Events API's `source_message_id` (the `data` of each event, as
  /// mParticle/mparticle-python-sdk `mparticle/models/app_event.py` and `batch.py` shape it:
  /// `{"events":[{"data":{…},"event_type":"custom_event"}]}`) and its mobile SDKs' message `id`
  /// (a batch's `msgs`, as in EndpointFuzzCorpus). Neither Python nor mobile SDK runs here: their
  /// payloads are sent as they send them, twice, the first answered `503`.
  func testMParticleRetriesOfRequestsAnswered503AreRecordedOnce() async throws {
    let url = temporaryRecording()
    defer { try? FileManager.default.removeItem(at: url) }
    let store = try GatedStore(url: url, open: false)
    let session = LiveSession(store: store)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .seconds(1)), ingest: session)
    func post(_ path: String, _ body: String) throws -> Int? {
      try httpRequest(
        port: server.port, path: path,
        headers: ["Authorization: Basic \(Data("mp-key:mp-secret".utf8).base64EncodedString())"], body: body
      )?.status
    }
    let events =
      #"{"events":[{"data":{"event_name":"Server Buy","custom_event_type":"transaction","#
      + #""source_message_id":"6f1c2a9e-0000-4000-8000-000000000001","timestamp_unixtime_ms":1764112800000},"#
      + #""event_type":"custom_event"}],"user_identities":{"customerid":"cust-42"},"environment":"development"}"#
    let native =
      #"{"dt":"h","id":"5B9A2D63-8E0B-4C5C-9B2E-0F6A1C3D7E11","ct":1764112800000,"mpid":6008681217290486000,"#
      + #""ai":{"an":"Freddy's","apn":"com.mparticle.SmartypeExample"},"di":{"dp":"iOS"},"#
      + #""msgs":[{"dt":"e","id":"0C1D2E3F-0000-4000-8000-000000000002","ct":1764112798000,"n":"App Buy","#
      + #""et":"Transaction","attrs":{"item":"cortado"}}]}"#
    XCTAssertEqual(try post("/v2/events", events), 503)
    XCTAssertEqual(try post("/v2/us1-key/events", native), 503)
    store.setOpen(true)
    XCTAssertEqual(try post("/v2/events", events), 202)
    XCTAssertEqual(try post("/v2/us1-key/events", native), 202)
    XCTAssertEqual(server.statistics.retriesSkipped, 2, server.statistics.summary)
    session.flush()
    try await server.shutdown()
    session.close()
    store.close()
    XCTAssertEqual(try recordedRecords(url).map(\.name), ["Server Buy", "App Buy"])
  }

  /// The official Python SDKs against a disk slower than the request timeout: each gets `503`
  /// and sends its events again as it does by itself (`scripts/sdk-clients/retry_client.py`) until
  /// the disk takes the first copy; every message is recorded once, known by its SDK's id
  /// (Segment `messageId`, PostHog `uuid`, Amplitude `insert_id`, Snowplow `eid`, Mixpanel
  /// `$insert_id`; Mixpanel's SDK retries over HTTPS only, so it goes through the proxy).
  func testOfficialPythonSDKsRetryingAfter503RecordEachMessageOnce() async throws {
    let python = packageRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
      throw XCTSkip("!!! SKIPPING: \(python.path) is missing (scripts/test creates it)")
    }
    for sdk in ["segment", "posthog", "amplitude", "snowplow", "mixpanel"] {
      let url = temporaryRecording()
      let authority = url.deletingPathExtension().appendingPathExtension("ca")
      defer {
        try? FileManager.default.removeItem(at: url)
        try? FileManager.default.removeItem(at: authority)
      }
      let store = try GatedStore(url: url, open: false)
      let session = LiveSession(store: store)
      var configuration = ListenConfiguration(port: 0, requestTimeout: .seconds(1))
      // Mixpanel's SDK retries over HTTPS only: through the proxy, answering for api.mixpanel.com.
      if sdk == "mixpanel" {
        configuration.proxy = ProxyConfiguration(port: 0, forward: false, authorityDirectory: authority)
      }
      let server = try await ListenServer.start(configuration: configuration, ingest: session)
      let process = Process()
      process.executableURL = python
      process.arguments = [
        packageRoot.appendingPathComponent("scripts/sdk-clients/retry_client.py").path, "127.0.0.1",
        String(server.port), sdk,
      ]
      var environment = ProcessInfo.processInfo.environment
      environment["NO_PROXY"] = "*"
      environment["POSTHOG_DISABLED"] = nil
      if let proxyPort = server.proxyPort {
        for name in ["NO_PROXY", "no_proxy"] { environment[name] = nil }
        for name in ["HTTPS_PROXY", "https_proxy"] { environment[name] = "http://127.0.0.1:\(proxyPort)" }
        environment["REQUESTS_CA_BUNDLE"] = authority.appendingPathComponent("ca.pem").path
      }
      process.environment = environment
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      try process.run()
      let guarding = HangGuard(process)
      // The first attempt was answered 503 and the SDK's retry of it skipped: the disk comes back.
      XCTAssertTrue(
        eventually { server.statistics.retriesSkipped >= 3 }, "\(sdk): \(server.statistics.summary)")
      store.setOpen(true)
      let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      XCTAssertFalse(guarding.finish(), "\(sdk) hung: \(output)")
      process.waitUntilExit()
      XCTAssertEqual(process.terminationStatus, 0, "\(sdk): \(output)")
      session.flush()
      try await server.shutdown()
      session.close()
      store.close()
      XCTAssertEqual(
        try recordedRecords(url).map(\.name), ["Retried 0", "Retried 1", "Retried 2"], "\(sdk): \(output)")
      XCTAssertGreaterThanOrEqual(server.statistics.timeouts[.request] ?? 0, 1, sdk)
    }
  }

  func testWithoutAStoreRepliesStillComeAndNothingIsSynced() async throws {
    let session = LiveSession(store: nil)
    let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0), ingest: session)
    let client = try RawClient(port: server.port)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Memory"}"#
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    XCTAssertEqual(client.readResponse()?.status, 200)
    try await server.shutdown()
    session.close()
  }

  func testARequestWhoseRecordsCannotBeWrittenGetsNo200AndIsClosed() async throws {
    let session = LiveSession(store: UnwritableStore())
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, requestTimeout: .milliseconds(300)), ingest: session)
    let client = try RawClient(port: server.port)
    let body = #"{"writeKey":"k","type":"track","userId":"u","event":"Lost"}"#
    client.send(
      "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        + "Content-Length: \(body.utf8.count)\r\n\r\n" + body)
    let reply = client.readResponse()
    try await server.shutdown()
    session.close()
    XCTAssertNotEqual(reply?.status, 200, "a 200 would claim records the disk did not take")
    XCTAssertEqual(server.statistics.accepted, 1)
    XCTAssertEqual(server.statistics.timeouts[.request], 1, "closed by the server, not left hanging")
  }
}

/// A store whose every write fails (a full disk).
private final class UnwritableStore: LiveStore, @unchecked Sendable {
  private let lock = NSLock()
  private var failure: SystemError?

  func receive(_ items: [SinkItem]) {
    lock.withLock { failure = SystemError("write", "full.jsonl", .noSpace) }
  }

  var lastWriteError: SystemError? { lock.withLock { failure } }

  func flush() {}

  func close() {}
}

/// Passes everything to `ingest`, counting the requests that asked to be told when their records
/// are stored (the last thing a request queues).
private final class StoredCounting: ListenIngest, @unchecked Sendable {
  private let ingest: any ListenIngest
  private let lock = NSLock()
  private var stored = 0

  init(_ ingest: any ListenIngest) { self.ingest = ingest }

  /// The requests queued whole so far.
  var count: Int { lock.withLock { stored } }

  func deliver(_ event: ListenEvent) { ingest.deliver(event) }
  func deliver(_ records: [Record], lines: [[UInt8]]) { ingest.deliver(records, lines: lines) }
  var hasRoom: Bool { ingest.hasRoom }
  func whenRoom(_ resume: @escaping @Sendable () -> Void) { ingest.whenRoom(resume) }
  func whenStored(_ done: @escaping @Sendable () -> Void) {
    ingest.whenStored(done)
    lock.withLock { stored += 1 }
  }
  func whenApplied(_ done: @escaping @Sendable () -> Void) { ingest.whenApplied(done) }
}
