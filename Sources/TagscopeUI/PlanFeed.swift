import TagscopeRecording

/// A tagging-plan violation found for a record, for the Providers pane: attached to the provider's
/// column when it names one, shown across the pane otherwise.
public struct PlanFinding: Sendable, Hashable {
  /// The provider the violation is about, if any.
  public var provider: String?
  /// The violation; its rule is `plan.<rule>` and its consequence the severity.
  public var violation: RecordViolation

  /// The code of the issue a finding of no provider becomes on the selected record (drawn `✗`,
  /// a violation, not a hub issue's `!`).
  public static let issueCode = "plan"

  /// A finding.
  public init(provider: String?, violation: RecordViolation) {
    self.provider = provider
    self.violation = violation
  }
}

/// Tagging-plan results the UI shows (coverage in the header, violations per record), supplied by
/// whatever validates the records — the CLI wires the plan validator in. The UI does not depend on
/// how plans are loaded or checked.
public protocol PlanFeed: AnyObject, Sendable {
  /// The header's plan text (`plan Podcasts v3: 34/41 covered, 3 errors`).
  var headerText: String { get }
  /// The violation counts alone (`3 errors, 1 warning`): what a narrow header keeps.
  var errorsText: String { get }
  /// The plan violations of the record at timeline position `index`.
  func findings(at index: Int) -> [PlanFinding]
  /// The coverage checklist QA works through, one item per planned tag and expectation with its
  /// state (failing first), each with the filter listing the records that cover it.
  func checklist() -> [ChecklistItem]
  /// The violated expectations of the record at `index`, expected beside got (plan violations,
  /// and the provider rules the record's outputs break).
  func comparisons(at index: Int) -> [Comparison]
  /// Drafts the plan entry of the tag `records` carry (records of one tag, from the timeline), or
  /// says why not (the tag is planned, the plan is not a file).
  func draftEntry(from records: [Record]) -> Result<PlanEntryPreview, PlanEntryFailure>
  /// Adds a previewed entry to the plan file; returns what to tell the user.
  func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure>
}

extension PlanFeed {
  public func draftEntry(from records: [Record]) -> Result<PlanEntryPreview, PlanEntryFailure> {
    .failure(PlanEntryFailure("this plan cannot be edited from here"))
  }

  public func addEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    .failure(PlanEntryFailure("this plan cannot be edited from here"))
  }
}
