import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording
import XCTest

/// The findings of validating `records` with `plan` record by record, asserting that `validate`'s
/// line cache (a recording in a temporary folder of its own) finds the same and covers the same.
func findingsBothWays(
  _ records: [Record], plan: Plan, file: StaticString = #filePath, line: UInt = #line
) throws -> [PlanViolation] {
  let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
    "findings-both-ways-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: directory) }
  let path = try writeRecording(records, named: "records.jsonl", in: directory)
  let report = try ValidateRunner.validate(plan: plan, recordings: [path])
  let (expected, validator) = validate(records, plan: plan)
  XCTAssertEqual(report.violations, expected, file: file, line: line)
  XCTAssertEqual(report.coverage.states, validator.coverage.states, file: file, line: line)
  return expected
}

/// A user action `name` on screen `home`, `seconds` after a fixed start, in session `session` of
/// an unauthenticated user: the record the journey tests build their sequences of.
func journeyAction(_ seq: UInt64, _ name: String, at seconds: Double, session: String) -> Record {
  Record(
    seq: seq, time: Date(timeIntervalSince1970: 1_800_000_000 + seconds), kind: .userAction, name: name,
    properties: [:],
    context: RecordContext(
      screen: "home", history: ["home"],
      session: RecordSession(id: session, state: "unauthenticated", properties: [:])))
}
