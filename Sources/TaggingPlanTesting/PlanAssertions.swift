#if canImport(XCTest)
  import AnalyticsHub
  import TaggingPlan
  import XCTest

  // XCTest assertions over a `PlanTestRun`, in a module of their own: `TaggingPlan` is also linked
  // by the `tagscope` command, which must not load libXCTest. Each one fails at the caller's file
  // and line with the `PlanTestFailure`'s lines (each violation's rule, plan line and message, or
  // each planned item not covered). In Swift Testing, or a throwing XCTest, call the run's
  // `require…` methods instead.

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless the tags the run checked broke no expectation of the plan (no violation at or
  /// above `failOn`, by default none at all), listing every violation. With
  /// `requireFinishedFunnels` (a test that plays whole journeys), a funnel started and not
  /// finished fails it too.
  public func XCTAssertConformsToPlan(
    _ run: PlanTestRun, failOn: Severity = .warning, requireFinishedFunnels: Bool = false,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
  ) {
    fail("XCTAssertConformsToPlan", message(), file, line) { () throws(PlanTestFailure) in
      try run.requireNoViolations(failOn: failOn, requireFinishedFunnels: requireFinishedFunnels)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless `dispatch`, checked by the run, broke no expectation of the plan.
  public func XCTAssertConformsToPlan(
    _ dispatch: Dispatch, in run: PlanTestRun, failOn: Severity = .warning,
    _ message: @autoclosure () -> String = "", file: StaticString = #filePath, line: UInt = #line
  ) {
    fail("XCTAssertConformsToPlan", message(), file, line) { () throws(PlanTestFailure) in
      try run.requireNoViolations(of: dispatch, failOn: failOn)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless each coverage item `id` (`action playPodcast on favorites: firebase`) was
  /// covered by the run, listing those that were not (and ids the plan does not have).
  public func XCTAssertCovers(
    _ run: PlanTestRun, _ ids: [String], _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    fail("XCTAssertCovers", message(), file, line) { () throws(PlanTestFailure) in
      try run.requireCovered(ids)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless everything the plan expects of `tag` (of `provider`, in `section`, when given)
  /// was covered, on `screen` when given.
  public func XCTAssertCovers(
    _ run: PlanTestRun, tag: String, screen: String? = nil, provider: String? = nil,
    section: PlanSection? = nil, _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
    line: UInt = #line
  ) {
    fail("XCTAssertCovers", message(), file, line) { () throws(PlanTestFailure) in
      try run.requireCovered(tag: tag, screen: screen, provider: provider, section: section)
    }
  }

  // swift-format-ignore: AlwaysUseLowerCamelCase
  /// Fails unless every planned item was covered, listing those that were not.
  public func XCTAssertCoversPlan(
    _ run: PlanTestRun, _ message: @autoclosure () -> String = "", file: StaticString = #filePath,
    line: UInt = #line
  ) {
    fail("XCTAssertCoversPlan", message(), file, line) { () throws(PlanTestFailure) in
      try run.requireFullCoverage()
    }
  }

  private func fail(
    _ assertion: String, _ message: String, _ file: StaticString, _ line: UInt,
    _ requirement: () throws(PlanTestFailure) -> Void
  ) {
    do {
      try requirement()
    } catch {
      let suffix = message.isEmpty ? "" : " - \(message)"
      // A plan loaded from the test bundle is cited by its source in the package.
      let cited = error.planFile.flatMap { PlanSourceLocator.source(of: $0, near: "\(file)") }.map {
        error.citingPlan(at: $0)
      }
      XCTFail("\(assertion) failed: \((cited ?? error).description)\(suffix)", file: file, line: line)
    }
  }
#endif
