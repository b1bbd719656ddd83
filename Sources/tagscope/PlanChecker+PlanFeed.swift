import TaggingPlan
import TaggingPlanReports
import TagscopeLive
import TagscopeRecording
import TagscopeUI

/// The debugger reads the plan results (header, Providers pane, coverage checklist, `a`/`y`) from
/// the checker the live session or the replay check fills: the debugger's types, made here where
/// both the debugger and the live session are linked (TagscopeLive does not import TagscopeUI).
extension PlanChecker: PlanFeed {
  public var headerText: String { monitor.headerText }

  public var errorsText: String { monitor.errorsText }

  public func checklist() -> [ChecklistItem] {
    checklistLines().map { ChecklistItem(text: $0.text, filter: $0.filter) }
  }

  /// The plan violations of the record at `index`, expected beside got: one comparison per call
  /// (those about the same call share its table).
  public func comparisons(at index: Int) -> [Comparison] {
    let violations = monitor.violations(at: index)
    return ExpectationComparison.grouped(violations).map { group in
      let first = violations[group.members[0]]
      return Comparison(
        rule: "plan." + first.rule.rawValue, message: first.message, expectation: group.comparison,
        others: group.members.dropFirst().map {
          Comparison.Other(rule: "plan." + violations[$0].rule.rawValue, message: violations[$0].message)
        })
    }
  }

  public func findings(at index: Int) -> [PlanFinding] {
    planFindings(at: index).map {
      PlanFinding(
        provider: $0.provider,
        violation: RecordViolation(
          rule: "plan." + $0.rule.rawValue, message: $0.message, consequence: $0.severity.rawValue))
    }
  }

  public func draftEntry(from records: [Record]) -> Result<PlanEntryPreview, PlanEntryFailure> {
    let planFile = monitor.plan.file
    return draftPlanEntry(from: records).map { draft in
      PlanEntryPreview(
        planFile: planFile, section: draft.section.key, name: draft.name,
        label: "\(draft.section.noun) \(draft.name)", text: draft.text, screens: draft.screens,
        records: draft.records)
    }.mapError { PlanEntryFailure($0.description) }
  }

  public func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    guard let section = PlanSection(key: preview.section) else {
      return .failure(PlanEntryFailure("unknown plan section \(preview.section)"))
    }
    let draft = PlanEntryDraft(
      section: section, name: preview.name, text: preview.text, screens: preview.screens,
      records: preview.records)
    return addPlanEntry(draft).mapError { PlanEntryFailure($0.description) }
  }
}
