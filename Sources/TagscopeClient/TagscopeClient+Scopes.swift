import Foundation

extension TagscopeClient {
  /// Begins the UI test scope `name`: the records `listen` stores from now until
  /// ``endScope(_:)`` are the scope's (only those from `source`, when given: a test on one device
  /// beside others). `records`, `wait`, `summary`, `violations` and ``check(_:scope:)`` take it as
  /// `scope:`.
  @discardableResult
  public func beginScope(_ name: String, source: String? = nil) async throws -> TestScopeInfo {
    let (_, data) = try await send("POST", "scope/begin", ["name": name, "source": source], timeout: 30)
    return try decode(data)
  }

  /// Ends the UI test scope `name` behind every record delivered so far, and returns its verdict:
  /// how many records it holds and the plan's violations among them.
  @discardableResult
  public func endScope(_ name: String) async throws -> ScopeVerdict {
    let (_, data) = try await send("POST", "scope/end", ["name": name], timeout: 30)
    return try decode(data)
  }

  /// Runs `body` in the UI test scope `name` (of `source` only, if given), ends the scope, and
  /// throws ``TagscopeClientError/scopeFailed(_:)`` with the violations' messages when the plan
  /// found any among its records (an error of `body` is thrown first, the scope ended all the
  /// same). In an XCTest, a thrown error fails the test with that message: `try await
  /// tagscope.scope("checkout") { tapPay(); try await tagscope.wait(for: "name:purchase", scope:
  /// "checkout") }`.
  @discardableResult
  public func scope<Result: Sendable>(
    _ name: String, source: String? = nil, _ body: () async throws -> Result
  ) async throws -> Result {
    let (result, verdict) = try await scoped(name, source: source, body)
    if let violations = verdict.violations, !violations.isEmpty {
      throw TagscopeClientError.scopeFailed(verdict)
    }
    return result
  }

  /// Runs `body` in the UI test scope `name` (of `source` only, if given), ends the scope, and
  /// returns `body`'s result with the scope's verdict, violations or not (for assertions of one's
  /// own: Swift Testing's `#expect`, or the XCTest ones of `TagscopeClientTesting`). An error of
  /// `body` is thrown, the scope ended all the same.
  public func scoped<Result: Sendable>(
    _ name: String, source: String? = nil, _ body: () async throws -> Result
  ) async throws -> (result: Result, verdict: ScopeVerdict) {
    try await beginScope(name, source: source)
    let result: Result
    do { result = try await body() } catch {
      _ = try? await endScope(name)
      throw error
    }
    return (result, try await endScope(name))
  }

  /// Checks `checks` at once against what `listen` holds for `scope` (or the current segment):
  /// the report says which failed, with their records. Wait first for records still on their
  /// way (a scope's end is behind every record delivered before it). Each ``ScopeCheck/exactly(_:filter:)``
  /// is one request (its filter narrows the records it counts), the other checks one more.
  public func check(_ checks: [ScopeCheck], scope: String? = nil) async throws -> ScopeCheckReport {
    var requests: [[String: String?]] = []
    var others: [String: String?] = [:]
    for check in checks {
      switch check {
      case .exactly(let count, let filter): requests.append(["exactly": String(count), "filter": filter])
      case .noUnplanned: others["unplanned"] = "none"
      case .inOrder(let names): others["order"] = names.joined(separator: ",")
      case .noViolations: others["violations"] = "none"
      }
    }
    if !others.isEmpty || requests.isEmpty { requests.insert(others, at: 0) }
    requests = requests.map { $0.merging(["scope": scope]) { $1 } }
    var report: ScopeCheckReport = try await get("assert", requests[0])
    for query in requests.dropFirst() {
      let next: ScopeCheckReport = try await get("assert", query)
      report = report.merged(with: next)
    }
    return report
  }

  /// ``check(_:scope:)``, throwing ``TagscopeClientError/checkFailed(_:)`` with what failed.
  public func expect(_ checks: ScopeCheck..., scope: String? = nil) async throws {
    let report = try await check(checks, scope: scope)
    if !report.passed { throw TagscopeClientError.checkFailed(report) }
  }
}
