#if canImport(XCTest)
  import TagscopeClient
  import XCTest

  // XCTest assertions over `tagscope listen`'s UI test scopes, in a module of their own: an app's
  // UI test target links it beside `TagscopeClient`, which stays URLSession only. Each failure is
  // recorded at the caller's file and line, one per violation or failed check, so Xcode lists each
  // beside the test's line; the throwing `scope(_:source:_:)` and `expect(_:scope:)` remain for
  // Swift Testing and for tests that stop at the first failure.

  extension TagscopeClient {
    /// Runs `body` in the UI test scope `name` (of `source` only, when given), ends the scope, and
    /// fails the calling test once per violation the plan found among the scope's records (its
    /// record, tag, rule and message), then returns `body`'s result. An error of `body` or of
    /// `listen` is thrown, the scope ended all the same.
    @discardableResult
    public func assertScope<Result: Sendable>(
      _ name: String, source: String? = nil, file: StaticString = #filePath, line: UInt = #line,
      _ body: () async throws -> Result
    ) async throws -> Result {
      let (result, verdict) = try await scoped(name, source: source, body)
      for message in ScopeFailureMessages.violations(of: verdict) {
        XCTFail(message, file: file, line: line)
      }
      return result
    }

    /// Checks `checks` against what `listen` holds for `scope` (or the current segment) and fails
    /// the calling test once per check that failed, naming its records.
    public func assertChecks(
      _ checks: ScopeCheck..., scope: String? = nil, file: StaticString = #filePath, line: UInt = #line
    ) async throws {
      let report = try await check(checks, scope: scope)
      for message in ScopeFailureMessages.failures(of: report) {
        XCTFail(message, file: file, line: line)
      }
    }
  }
#endif
