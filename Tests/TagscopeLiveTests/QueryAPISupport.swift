import Foundation
import TaggingPlan
import TagscopeLive
import TagscopeRecording
import TagscopeServer
import TagscopeTestSupport
import TagscopeTimeline

/// A real `listen` for query API tests: a live timeline recording to a temporary file, a live
/// session (with a plan checker when a plan is given), its query service and a server on
/// 127.0.0.1; records go in over the native stream.
final class QueryAPIHarness: @unchecked Sendable {
  let timeline: Timeline
  let session: LiveSession
  let server: ListenServer
  let query: QueryService
  let recording: URL
  private var native: RawClient?

  /// The plan every query API test uses: two screens and one action with a required property.
  static let plan = """
    plan: Shop
    screens:
      home: {}
      cart: {}
    actions:
      addToCart:
        properties:
          sku: {type: string, required: true}
    """

  private init(
    timeline: Timeline, session: LiveSession, server: ListenServer, query: QueryService, recording: URL
  ) {
    self.timeline = timeline
    self.session = session
    self.server = server
    self.query = query
    self.recording = recording
  }

  /// A harness checking the plan `yaml` (read from `planFile` instead when given).
  static func start(
    plan yaml: String? = QueryAPIHarness.plan, planFile: String? = nil, token: String? = nil,
    corsOrigin: String? = nil
  ) async throws -> QueryAPIHarness {
    let recording = temporaryRecording()
    let timeline = try Timeline.live(recordingTo: recording, header: RecordingHeader(app: "tagscope listen"))
    let plan =
      try planFile.map { try PlanLoader.load(contentsOf: $0) }
      ?? yaml.map { try PlanLoader.load(yaml: $0, file: "shop.yaml") }
    let checker = plan.map { PlanChecker(plan: $0, timeline: timeline) }
    let session = LiveSession(store: timeline, checker: checker)
    let query = QueryService(session: session, timeline: timeline)
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(port: 0, token: token, corsOrigin: corsOrigin), ingest: session,
      query: query)
    return QueryAPIHarness(
      timeline: timeline, session: session, server: server, query: query, recording: recording)
  }

  func stop() async throws {
    native = nil
    try await server.shutdown()
    session.close()
    timeline.release()
    try? FileManager.default.removeItem(at: recording)
  }

  /// Sends record lines over one native stream (its header first, from app `App` on `sim`).
  func send(_ records: [String], token: String? = nil) throws {
    if native == nil {
      let client = try RawClient(port: server.port)
      let tokenField = token.map { #","token":"\#($0)""# } ?? ""
      client.send(
        #"{"format":"tagscope-recording","version":1,"app":"App","device":"sim"\#(tokenField)}"# + "\n")
      native = client
    }
    native?.send(records.joined(separator: "\n") + "\n")
  }

  /// A request to the API; `token` goes in `Authorization: Bearer`.
  func request(
    _ pathAndQuery: String, method: String = "GET", token: String? = nil, headers: [String] = [],
    timeout: TimeInterval = 60
  ) throws -> APIReply {
    let client = try RawClient(port: server.port, timeout: timeout)
    var head = "\(method) /tagscope/v1/\(pathAndQuery) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
    if let token { head += "Authorization: Bearer \(token)\r\n" }
    for header in headers { head += header + "\r\n" }
    head += "Content-Length: 0\r\n\r\n"
    client.send(head)
    guard let (status, body) = client.readResponse() else { throw POSIXError(.ECONNRESET) }
    return APIReply(status: status, body: body)
  }
}

/// A query API reply as a test reads it.
struct APIReply: Sendable {
  var status: Int
  var body: String

  /// The body as a JSON object (empty when it is not one).
  var json: [String: Any] {
    (try? JSONSerialization.jsonObject(with: Data(body.utf8))) as? [String: Any] ?? [:]
  }

  /// The names of the records in the body's `records`.
  var names: [String] { (json["records"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String } }

  /// The `seq` of the records in the body's `records`.
  var seqs: [Int] { (json["records"] as? [[String: Any]] ?? []).compactMap { $0["seq"] as? Int } }

  /// The body's `error` message.
  var error: String { json["error"] as? String ?? "" }
}

/// A record line: kind, name, seq and properties.
func recordLine(_ seq: Int, _ kind: String, _ name: String, properties: String = "{}") -> String {
  #"{"seq":\#(seq),"time":"2026-11-21T10:00:\#(String(format: "%02d", seq % 60)).000Z","kind":"\#(kind)","name":"\#(name)","properties":\#(properties)}"#
}

/// `text` percent-encoded for a query value.
func queryValue(_ text: String) -> String {
  text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
}
