import Foundation

/// Why a ``PlanTestRun`` requirement failed: the violations, the planned items not covered and
/// the queries the plan has no item for, one a line, as a test prints it.
public struct PlanTestFailure: Error, Sendable, CustomStringConvertible, LocalizedError {
  /// The violations that failed the requirement, in order.
  public var violations: [PlanViolation]
  /// The planned items not covered.
  public var uncovered: [CoverageItem]
  /// Coverage ids or queries the plan has nothing for, and dispatches the run did not check.
  public var unknown: [String]
  /// The funnels started and not finished, when the requirement asked for finished ones.
  public var unfinishedFunnels: [PlanTestUnfinishedFunnel]
  /// The failure: a line per violation, uncovered item and unknown query.
  public let description: String
  private let plan: Plan
  private let screen: String?

  /// A failure of `plan`; `screen` is the screen the coverage was required on, if any. The plan is
  /// cited once, by `planPath` (its file by default).
  public init(
    plan: Plan, violations: [PlanViolation] = [], uncovered: [CoverageItem] = [], unknown: [String] = [],
    unfinishedFunnels: [PlanTestUnfinishedFunnel] = [], screen: String? = nil, planPath: String? = nil
  ) {
    self.violations = violations
    self.uncovered = uncovered
    self.unknown = unknown
    self.unfinishedFunnels = unfinishedFunnels
    self.plan = plan
    self.screen = screen
    var lines: [String] = []
    let planName = "plan \(plan.title) (\(planPath ?? plan.file))"
    if !violations.isEmpty {
      let count = violations.count == 1 ? "1 violation" : "\(violations.count) violations"
      lines.append("\(count) of \(planName):")
      // Each call's violations, then its expected-vs-got table once.
      for group in ExpectationComparison.grouped(violations) {
        for member in group.members { lines.append("  " + Self.line(violations[member])) }
        if violations[group.members[0]].evidence != nil { lines += Self.table(group.comparison) }
      }
    }
    if !uncovered.isEmpty {
      let count = uncovered.count == 1 ? "1 planned item" : "\(uncovered.count) planned items"
      let on = screen.map { " on \($0)" } ?? ""
      lines.append("\(count) of \(planName) not covered\(on):")
      for item in uncovered { lines.append("  \(item.id) (plan line \(item.location.line))") }
    }
    if !unfinishedFunnels.isEmpty {
      let count = unfinishedFunnels.count == 1 ? "1 funnel" : "\(unfinishedFunnels.count) funnels"
      lines.append("\(count) of \(planName) unfinished at the end of the run:")
      for funnel in unfinishedFunnels { lines.append("  \(funnel)") }
    }
    for problem in unknown { lines.append("\(problem) (\(planName))") }
    description = lines.joined(separator: "\n")
  }

  /// The file the plan was loaded from, as it was given.
  public var planFile: String? { plan.file.isEmpty ? nil : plan.file }

  /// The same failure citing the plan by `path` (its source, rather than a build folder's copy).
  public func citingPlan(at path: String) -> PlanTestFailure {
    PlanTestFailure(
      plan: plan, violations: violations, uncovered: uncovered, unknown: unknown,
      unfinishedFunnels: unfinishedFunnels, screen: screen, planPath: path)
  }

  public var errorDescription: String? { description }

  /// Characters of an expected column at most before the got column starts.
  static let expectedWidth = 40

  /// `    expected vs got · firebase purchase`, then a line per row (`✗ ` marking the differing
  /// ones), in columns.
  static func table(_ comparison: ExpectationComparison) -> [String] {
    let field = min(40, comparison.rows.map(\.field.count).max() ?? 0)
    let expected = min(expectedWidth, max(15, comparison.rows.map(\.expected.count).max() ?? 0))
    func pad(_ text: String, _ width: Int) -> String {
      text + String(repeating: " ", count: max(1, width + 2 - text.count))
    }
    var lines = [
      "    expected vs got · \(comparison.title)",
      "      " + pad("field", field) + pad(comparison.expectedHeading, expected) + "got (record)",
    ]
    for row in comparison.rows {
      lines.append(
        "    " + (row.differs ? "✗ " : "  ") + pad(row.field, field) + pad(row.expected, expected)
          + row.actual)
    }
    return lines
  }

  /// `#6 error missing-param: pausePodcast on favorites: firebase …, plan line 87 expects it` (the
  /// message cites the plan line; the plan file is cited once, above).
  static func line(_ violation: PlanViolation) -> String {
    "#\(violation.seq) \(violation.severity.rawValue) \(violation.rule.rawValue): \(violation.message)"
  }
}
