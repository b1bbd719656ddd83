import Foundation

/// A UI test scope, as `POST /tagscope/v1/scope/begin` answers.
public struct TestScopeInfo: Sendable, Hashable, Decodable {
  /// Its name.
  public var scope: String
  /// The only source whose records it takes; `nil` for every source.
  public var source: String?
  /// When it began (ISO 8601).
  public var started: String
  /// Whether it is still open.
  public var open: Bool
}

/// An ended scope, as `POST /tagscope/v1/scope/end` answers: its records and violations.
public struct ScopeVerdict: Sendable, Hashable, Decodable, CustomStringConvertible {
  public var scope: String
  public var source: String?
  public var started: String
  /// How many records it holds.
  public var records: Int
  /// The plan's violations among them; `nil` when `listen` has no plan.
  public var violations: [PlanViolationReport]?

  public var description: String {
    let found = violations ?? []
    var text = "scope '\(scope)': \(records) record(s), \(found.count) violation(s)"
    for violation in found.prefix(20) {
      text += "\n  #\(violation.seq) \(violation.tag): \(violation.message)"
    }
    if found.count > 20 { text += "\n  … and \(found.count - 20) more" }
    return text
  }
}

/// A check of ``TagscopeClient/check(_:scope:)``.
public enum ScopeCheck: Sendable, Hashable {
  /// Exactly `count` records pass `filter` (the debugger's filter language).
  case exactly(Int, filter: String)
  /// No record is a tag the plan does not know.
  case noUnplanned
  /// Records with these names come in this order (others may come between); no name holds a comma.
  case inOrder([String])
  /// The plan found no violation.
  case noViolations
}

/// A check that failed, with the records it names (at most 20).
public struct ScopeCheckFailure: Sendable, Hashable, Decodable, CustomStringConvertible {
  /// `exactly`, `unplanned`, `order` or `violations`.
  public var check: String
  public var message: String
  public var records: [ReceivedRecord]

  /// `check: message (#4 surprise, …)`, naming its first five records.
  public var description: String {
    guard !records.isEmpty else { return "\(check): \(message)" }
    return "\(check): \(message) ("
      + records.prefix(5).map { "#\($0.seq) \($0.name)" }.joined(separator: ", ")
      + ")"
  }
}

/// `GET /tagscope/v1/assert`: whether every check passed, and those that did not.
public struct ScopeCheckReport: Sendable, Hashable, Decodable, CustomStringConvertible {
  public var segment: Int
  /// The scope checked; `nil` for the segment.
  public var scope: String?
  public var passed: Bool
  /// How many checks ran.
  public var checks: Int
  public var failures: [ScopeCheckFailure]

  /// This report and `other`'s checks together.
  func merged(with other: ScopeCheckReport) -> ScopeCheckReport {
    var merged = other
    merged.passed = passed && other.passed
    merged.checks = checks + other.checks
    merged.failures = failures + other.failures
    return merged
  }

  /// What was checked, as messages name it: `scope 'checkout'`, or `segment 2`.
  public var subject: String { scope.map { "scope '\($0)'" } ?? "segment \(segment)" }

  public var description: String {
    guard !passed else { return "\(subject): \(checks) check(s) passed" }
    return "\(subject): " + failures.map(\.description).joined(separator: "; ")
  }
}
