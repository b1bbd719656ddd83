import Foundation
import TaggingPlan
import TagscopeRecording
import TagscopeUI

/// The debugger reads the plan results (header, Providers pane, coverage checklist) from the
/// checker the live session or the replay check fills.
extension PlanChecker: PlanFeed {
  public var headerText: String { monitor.headerText }

  public var errorsText: String { monitor.errorsText }

  /// The summary, then one item per expectation with its state — failing first, then blocked,
  /// not seen, passed (`✗ failing · 3 of 5 broke it (wrong-name) · action playPodcast on favorites:
  /// firebase · plan line 71`, `✓ passed · … · 5× · …`) — each with the filter that lists the
  /// records covering it.
  public func checklist() -> [ChecklistItem] {
    let coverage = monitor.coverage
    var byState: [CoverageState.Kind: [ChecklistItem]] = [:]
    for (index, item) in coverage.items.enumerated() {
      let state = coverage.state(at: index)
      let count = coverage.counts[index]
      var text = "\(state.label) · \(item.id)"
      if count > 0, state.kind != .failing { text += " · \(count)×" }
      text += " · plan line \(item.location.line)"
      byState[state.kind, default: []].append(ChecklistItem(text: text, filter: item.debuggerFilter))
    }
    let order: [CoverageState.Kind] = [.failing, .blocked, .notSeen, .passed]
    return [ChecklistItem(text: "\(coverage.summary) · enter lists the records of an item")]
      + order.flatMap { byState[$0] ?? [] }
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

  /// The plan violations merged into the record's outputs and issues: those restating a rule
  /// violation the record already carries are left out, so it counts once.
  public func findings(at index: Int) -> [PlanFinding] {
    monitor.violations(at: index).filter { !$0.restatesRecordedRule }.map {
      PlanFinding(
        provider: $0.provider,
        violation: RecordViolation(
          rule: "plan." + $0.rule.rawValue, message: $0.message, consequence: $0.severity.rawValue))
    }
  }
}

/// The debugger's `a`: the entry of an unplanned tag drafted from its records, added to the plan
/// file on `y`, which is then loaded again and every record so far checked against it.
extension PlanChecker {
  public func draftEntry(from records: [Record]) -> Result<PlanEntryPreview, PlanEntryFailure> {
    let plan = monitor.plan
    guard let first = records.first, let kind = first.kind.tagKind, let section = PlanSection(kind: kind)
    else {
      return .failure(PlanEntryFailure("sessions, identify, reset and consent are not planned"))
    }
    guard FileManager.default.fileExists(atPath: plan.file) else {
      return .failure(PlanEntryFailure("the plan is not a file (\(plan.file)): start with --plan FILE"))
    }
    if let entry = plan.entries.first(where: { $0.section == section && $0.name == first.name }) {
      return .failure(
        PlanEntryFailure("\(entry.label) is already planned (\(plan.file):\(entry.location.line))"))
    }
    var inference = PlanInference()
    for record in records { inference.add(record: record) }
    guard let draft = inference.entry(section: section, name: first.name) else {
      return .failure(PlanEntryFailure("no record of \(section.noun) \(first.name) to draft from"))
    }
    return .success(
      PlanEntryPreview(
        planFile: plan.file, section: section.key, name: draft.name, label: "\(section.noun) \(draft.name)",
        text: draft.text, screens: draft.screens, records: draft.records))
  }

  public func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    guard let section = PlanSection(key: preview.section) else {
      return .failure(PlanEntryFailure("unknown plan section \(preview.section)"))
    }
    let draft = PlanEntryDraft(
      section: section, name: preview.name, text: preview.text, screens: preview.screens,
      records: preview.records)
    do {
      let (line, plan) = try PlanFileEditor.add(draft, toPlanAt: preview.planFile)
      let added = "added \(preview.label) to \(preview.planFile):\(line)"
      // The records so far are checked again against the plan as the file now is.
      guard reload(plan) else { return .success("\(added); it is checked from the next start") }
      // The debugger's job lane waits here, not its drawing thread: the header shows the progress.
      waitUntilReloaded()
      return .success("\(added) and checked the records again")
    } catch {
      return .failure(PlanEntryFailure(error.description))
    }
  }
}
