import Foundation
import TaggingPlan
import TagscopeInspector
import TagscopeLive
import TagscopeRecording
import TagscopeTestSupport

/// A record the live session checked, with its violations.
struct CheckedRecord: Sendable {
  var record: Record
  var violations: [PlanViolation]
}

/// A live session recording to `url` and checking `plan`, with the list each record it checked
/// is appended to (its violations beside it): what the consent-on-the-wire tests watch.
func checkingSession(plan: Plan, url: URL) throws -> (LiveSession, LockedArray<CheckedRecord>) {
  let checked = LockedArray<CheckedRecord>()
  let session = LiveSession(store: try Recorder(url: url), checker: PlanChecker(plan: plan)) { update in
    var records: [Record] = []
    for case .records(let some) in update.events { records += some }
    for (record, violations) in zip(records, update.violations) {
      checked.append(CheckedRecord(record: record, violations: violations))
    }
  }
  return (session, checked)
}

/// Whether `violation` is a consent finding: `consent-withdrawn` or `consent-unchecked`.
func isConsentFinding(_ violation: PlanViolation) -> Bool {
  violation.rule == .consentWithdrawn || violation.rule == .consentUnchecked
}
