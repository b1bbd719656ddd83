import Foundation
import TaggingPlan
import TaggingPlanReports
import TagscopeRecording

/// One line of the coverage checklist QA works through: its text and the filter listing the
/// records that cover it.
public struct PlanChecklistLine: Sendable, Hashable {
  /// `✗ failing · 3 of 5 broke it (wrong-name) · action playPodcast on favorites: firebase · plan line 71`.
  public var text: String
  /// The filter that lists the records covering it (`nil` for the summary line).
  public var filter: String?
}

/// Why a plan entry cannot be drafted or added.
public struct PlanEntryRefusal: Error, Sendable, Hashable, CustomStringConvertible {
  public var description: String

  init(_ description: String) { self.description = description }
}

/// What the debugger reads of the plan check (its header, Providers pane, coverage checklist and
/// `a`/`y`), in the plan's own types: the debugger's adapter (`tagscope`'s `PlanFeed`
/// conformance) turns them into its own.
extension PlanChecker {
  /// The summary, then one line per expectation with its state — failing first, then blocked,
  /// not seen, passed (`✓ passed · … · 5× · …`) — each with the filter that lists the records
  /// covering it.
  public func checklistLines() -> [PlanChecklistLine] {
    let coverage = monitor.coverage
    var byState: [CoverageState.Kind: [PlanChecklistLine]] = [:]
    for (index, item) in coverage.items.enumerated() {
      let state = coverage.state(at: index)
      let count = coverage.counts[index]
      var text = "\(state.label) · \(item.id)"
      if count > 0, state.kind != .failing { text += " · \(count)×" }
      text += " · plan line \(item.location.line)"
      byState[state.kind, default: []].append(PlanChecklistLine(text: text, filter: item.debuggerFilter))
    }
    let order: [CoverageState.Kind] = [.failing, .blocked, .notSeen, .passed]
    return [PlanChecklistLine(text: "\(coverage.summary) · enter lists the records of an item")]
      + order.flatMap { byState[$0] ?? [] }
  }

  /// The plan violations of the record at `index` to show beside its outputs and issues: those
  /// restating a rule violation the record already carries are left out, so it counts once.
  public func planFindings(at index: Int) -> [PlanViolation] {
    monitor.violations(at: index).filter { !$0.restatesRecordedRule }
  }

  /// The debugger's `a`: the entry of an unplanned tag drafted from its records (records of one
  /// tag), or why not (the tag is planned, the plan is not a file).
  public func draftPlanEntry(from records: [Record]) -> Result<PlanEntryDraft, PlanEntryRefusal> {
    let plan = monitor.plan
    guard let first = records.first, let kind = first.kind.tagKind, let section = PlanSection(kind: kind)
    else {
      return .failure(PlanEntryRefusal("sessions, identify, reset and consent are not planned"))
    }
    guard FileManager.default.fileExists(atPath: plan.file) else {
      return .failure(PlanEntryRefusal("the plan is not a file (\(plan.file)): start with --plan FILE"))
    }
    if let entry = plan.entries.first(where: { $0.section == section && $0.name == first.name }) {
      return .failure(
        PlanEntryRefusal("\(entry.label) is already planned (\(plan.file):\(entry.location.line))"))
    }
    var inference = PlanInference()
    for record in records { inference.add(record: record) }
    guard let draft = inference.entry(section: section, name: first.name) else {
      return .failure(PlanEntryRefusal("no record of \(section.noun) \(first.name) to draft from"))
    }
    return .success(draft)
  }

  /// The debugger's `y`: `draft` added to the plan file, which is then loaded again and every
  /// record so far checked against it; returns what to tell the user.
  public func addPlanEntry(_ draft: PlanEntryDraft) -> Result<String, PlanEntryRefusal> {
    do {
      let (line, plan) = try PlanFileEditor.add(draft, toPlanAt: monitor.plan.file)
      let added = "added \(draft.section.noun) \(draft.name) to \(monitor.plan.file):\(line)"
      // The records so far are checked again against the plan as the file now is.
      guard reload(plan) else { return .success("\(added); it is checked from the next start") }
      // The debugger's job lane waits here, not its drawing thread: the header shows the progress.
      waitUntilReloaded()
      return .success("\(added) and checked the records again")
    } catch {
      return .failure(PlanEntryRefusal(error.description))
    }
  }
}
