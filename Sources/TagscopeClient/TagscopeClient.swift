import Foundation

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// A client of `tagscope listen`'s query API, for automated UI tests (XCUITest, or any async
/// test): ask what the app sent, wait for records instead of sleeping, reset between tests. Filters
/// are the debugger's filter language: terms that must all match, values with spaces in quotes.
///
/// ```swift
/// let tagscope = TagscopeClient()  // listen on 127.0.0.1:7531
/// try await tagscope.reset()
/// // … the UI test taps through the app …
/// let orders = try await tagscope.wait(for: #"name:"Order Completed""#, count: 1, timeout: .seconds(5))
/// ```
public struct TagscopeClient: Sendable {
  /// Where `listen` answers (`http://127.0.0.1:7531`).
  public var baseURL: URL
  /// `listen --token`, if it has one.
  public var token: String?
  private let session: URLSession

  /// A client of the `listen` at `baseURL`, with its `--token` if any.
  public init(
    baseURL: URL = URL(string: "http://127.0.0.1:7531")!, token: String? = nil, session: URLSession = .shared
  ) {
    self.baseURL = baseURL
    self.token = token
    self.session = session
  }

  /// Counts of the current segment (or of the records of `scope`): records, with violations, by
  /// kind, source and provider, and the plan's coverage by state (the segment's only).
  public func summary(scope: String? = nil) async throws -> QuerySummary {
    try await get("summary", ["scope": scope])
  }

  /// Records of the current segment passing `filter` (the debugger's filter language), from
  /// `source` only if given, of `scope` only if given, a page of at most `limit` from `since` (the
  /// previous page's `next`).
  public func records(
    filter: String? = nil, source: String? = nil, since: Int? = nil, limit: Int? = nil, scope: String? = nil
  ) async throws -> RecordPage {
    try await get(
      "records",
      [
        "filter": filter, "source": source, "since": since.map(String.init), "limit": limit.map(String.init),
        "scope": scope,
      ])
  }

  /// The plan's violations in the current segment, or of `scope`'s records (404 `refused` without
  /// a plan).
  public func violations(scope: String? = nil) async throws -> [PlanViolationReport] {
    struct Reply: Decodable { var violations: [PlanViolationReport] }
    let reply: Reply = try await get("violations", ["scope": scope])
    return reply.violations
  }

  /// The plan's coverage in the current segment.
  public func coverage() async throws -> CoverageReport {
    struct Reply: Decodable { var coverage: CoverageReport }
    let reply: Reply = try await get("coverage")
    return reply.coverage
  }

  /// Waits until `count` records of the current segment (of `scope` only, if given: a record of
  /// another scope's device does not count) match `filter`, and returns them; throws
  /// ``TagscopeClientError/timedOut(_:)`` when `timeout` passes first, naming the filter, the
  /// matching records that did arrive and what the segment holds. `listen` answers as soon as they arrive: no sleeping, no polling.
  @discardableResult
  public func wait(
    for filter: String, count: Int = 1, timeout: Duration = .seconds(10), scope: String? = nil
  ) async throws -> [ReceivedRecord] {
    struct Reply: Decodable { var records: [ReceivedRecord] }
    let seconds = Double(timeout.components.seconds) + Double(timeout.components.attoseconds) / 1e18
    let (status, data) = try await send(
      "GET", "wait", ["filter": filter, "count": String(count), "timeout": String(seconds), "scope": scope],
      timeout: seconds + 10)
    let reply: Reply = try decode(data)
    if status == 408 {
      throw TagscopeClientError.timedOut(
        WaitTimeout(
          filter: filter, count: count, seconds: seconds, received: reply.records,
          arrived: try? await summary(scope: scope)))
    }
    return reply.records
  }

  /// Starts a new segment: the API counts from now on (the recording keeps everything).
  @discardableResult
  public func reset() async throws -> Segment {
    let (_, data) = try await send("POST", "reset", [:], timeout: 30)
    return try decode(data)
  }

  // MARK: Requests

  func get<Reply: Decodable>(_ path: String, _ query: [String: String?] = [:]) async throws -> Reply {
    let (_, data) = try await send("GET", path, query, timeout: 30)
    return try decode(data)
  }

  /// Sends a request; a status other than 200 (or a wait's 408) throws `refused` with the
  /// server's message.
  func send(_ method: String, _ path: String, _ query: [String: String?], timeout: Double)
    async throws -> (Int, Data)
  {
    var components = URLComponents(
      url: baseURL.appendingPathComponent("tagscope/v1/" + path), resolvingAgainstBaseURL: false)!
    let items = query.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
    if !items.isEmpty { components.queryItems = items.sorted { $0.name < $1.name } }
    guard let url = components.url else { throw TagscopeClientError.invalidResponse("bad URL for \(path)") }
    var request = URLRequest(url: url, timeoutInterval: timeout)
    request.httpMethod = method
    if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
    let (data, response) = try await session.data(for: request)
    guard let http = response as? HTTPURLResponse else {
      throw TagscopeClientError.invalidResponse("not HTTP")
    }
    if http.statusCode == 200 || (http.statusCode == 408 && path == "wait") { return (http.statusCode, data) }
    struct Failure: Decodable { var error: String }
    let message =
      (try? JSONDecoder().decode(Failure.self, from: data))?.error ?? String(decoding: data, as: UTF8.self)
    throw TagscopeClientError.refused(status: http.statusCode, message: message)
  }

  func decode<Reply: Decodable>(_ data: Data) throws -> Reply {
    do { return try JSONDecoder().decode(Reply.self, from: data) } catch {
      throw TagscopeClientError.invalidResponse("\(error)")
    }
  }
}
