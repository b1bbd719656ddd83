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
  /// The failure: a line per violation, uncovered item and unknown query.
  public let description: String

  /// A failure of `plan`; `screen` is the screen the coverage was required on, if any.
  public init(
    plan: Plan, violations: [PlanViolation] = [], uncovered: [CoverageItem] = [], unknown: [String] = [],
    screen: String? = nil
  ) {
    self.violations = violations
    self.uncovered = uncovered
    self.unknown = unknown
    var lines: [String] = []
    let planName = "plan \(plan.title) (\(plan.file))"
    if !violations.isEmpty {
      let count = violations.count == 1 ? "1 violation" : "\(violations.count) violations"
      lines.append("\(count) of \(planName):")
      for violation in violations { lines.append("  " + Self.line(violation, file: plan.file)) }
    }
    if !uncovered.isEmpty {
      let count = uncovered.count == 1 ? "1 planned item" : "\(uncovered.count) planned items"
      let on = screen.map { " on \($0)" } ?? ""
      lines.append("\(count) of \(planName) not covered\(on):")
      for item in uncovered { lines.append("  \(item.id) (\(plan.file):\(item.location.line))") }
    }
    for problem in unknown { lines.append("\(problem) (\(planName))") }
    description = lines.joined(separator: "\n")
  }

  public var errorDescription: String? { description }

  /// `#6 error missing-param at plan.yaml:87: pausePodcast on favorites: firebase …`.
  static func line(_ violation: PlanViolation, file: String) -> String {
    let place = violation.planLine.map { " at \(file):\($0)" } ?? ""
    return
      "#\(violation.seq) \(violation.severity.rawValue) \(violation.rule.rawValue)\(place): \(violation.message)"
  }
}
