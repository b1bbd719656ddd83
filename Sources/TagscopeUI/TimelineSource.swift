import TagscopeRecording
import TagscopeTimeline

/// Where the debugger's effects read records: positions from 0 in arrival order. Only the effect
/// runner reads it, off the render path; ``update(_:_:)`` and ``render(_:size:)`` see what it
/// returned as messages.
///
/// Implementations are append-only: the record at a position never changes once `count` covers it
/// (its plan violations may be added later; ``SourceInfo/planSummary`` changes then).
public protocol TimelineSource: AnyObject, Sendable {
  /// How many records exist now.
  var count: Int { get }
  /// The header facts now: names, sources, drops, plan coverage, whether still loading.
  var info: SourceInfo { get }
  /// The list fields of the records in `range` (clamped to ``count``).
  func summaries(in range: Range<Int>) -> [RecordSummary]
  /// The time of the record at `index`, in seconds since 1970 (cheap: binary searches use it).
  func time(at index: Int) -> Double?
  /// The full record at `index`, or why it cannot be read.
  func record(at index: Int) -> Result<Record, TimelineError>
  /// Screens, session, timers and consent as of (just after) the record at `index`.
  func state(at index: Int) -> TimelineState?
  /// The positions in `range` of the records passing `filter`, ascending.
  func filter(_ filter: TimelineFilter, in range: Range<Int>) -> [Int]
  /// The first record after `index` with rule or plan violations.
  func nextViolation(after index: Int) -> Int?
  /// The last record before `index` with rule or plan violations.
  func previousViolation(before index: Int) -> Int?
  /// The tagging-plan violations of the record at `index`.
  func findings(at index: Int) -> [PlanFinding]
  /// The plan's coverage checklist (empty without a plan).
  func planChecklist() -> [ChecklistItem]
  /// The record's violated expectations, expected beside got (its provider rules without a plan).
  func comparisons(at index: Int) -> [Comparison]
  /// Every source with its counts and, under `listen`, its connection, in the order first seen.
  func sourceOverview() -> [SourceOverview]
  /// Writes the records at `indices` to a new recording at `path` (never overwriting a file);
  /// returns how many were written.
  func export(_ indices: [Int], to path: String) -> Result<Int, TimelineError>
  /// ``export(_:to:)`` with each line redacted (``Redactor``, hashes salted with `salt`).
  func export(_ indices: [Int], to path: String, redactingWith salt: String) -> Result<Int, TimelineError>
  /// The plan entry drafted for the tag of the record at `index` from the records of that tag,
  /// or why none can be (no plan file, the tag is planned).
  func draftPlanEntry(at index: Int) -> Result<PlanEntryPreview, PlanEntryFailure>
  /// Adds a previewed entry to the plan file; returns what to tell the user.
  func addPlanEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure>
  /// The delivery states of each record's provider calls now, by position (``DeliveryFeed``);
  /// `nil` when no delivery ledger follows the records.
  func deliveryStates() -> [Int: [String]]?
  /// The delivery of each provider call of the record at `index` now (``DeliveryFeed``); `nil`
  /// when no delivery ledger follows the records.
  func deliveries(at index: Int) -> [CallDelivery]?
}

extension TimelineSource {
  public func deliveryStates() -> [Int: [String]]? { nil }

  public func deliveries(at index: Int) -> [CallDelivery]? { nil }

  public func draftPlanEntry(at index: Int) -> Result<PlanEntryPreview, PlanEntryFailure> {
    .failure(PlanEntryFailure("no plan to add entries to"))
  }

  public func addPlanEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    .failure(PlanEntryFailure("no plan to add entries to"))
  }
}

/// What the header shows about where records come from; arrives as ``Msg/info(_:)``.
public struct SourceInfo: Sendable, Hashable {
  /// The app name.
  public var appName: String
  /// Where records come from (`live demo`, a file name).
  public var sourceLabel: String
  /// Tagging-plan coverage (`plan Podcasts v3: 34/41 covered`), when a plan is loaded.
  public var planSummary: String?
  /// The plan's violation counts alone (`3 errors`), what a narrow header keeps of ``planSummary``.
  public var planErrors: String?
  /// The providers seen, in the order of the Events list's status marks.
  public var providers: [String]
  /// The first record after the latest reset (`POST /tagscope/v1/reset`, a test suite starting a
  /// test), when there was one: the header counts from there.
  public var segmentStart: Int?
  /// Records lost upstream (backlog overflow, drop markers).
  public var dropped: Int
  /// The devices/connections records came from (`tagscope listen`), in order of appearance.
  public var sources: [String]
  /// Whether records are still being loaded (a recording being indexed).
  public var isLoading: Bool
  /// Why records come slower than asked, while they do (`simulator slowed: …`).
  public var slowdown: String?
  /// Records whose `seq` repeats or goes backwards within their source (kept in file order).
  public var seqAnomalies: Int
  /// An input that ended, said once in the status line when it first appears (`firebase log
  /// stdin: standard input ended…`).
  public var ended: String?
  /// The delivery ledger's ``DeliveryFeed/fingerprint()``, when one follows the records: when it
  /// changes, the selected record's deliveries are reloaded.
  public var deliveryFingerprint: String?

  /// Header facts.
  public init(
    appName: String = "", sourceLabel: String = "", planSummary: String? = nil, dropped: Int = 0,
    sources: [String] = [], isLoading: Bool = false, slowdown: String? = nil, seqAnomalies: Int = 0,
    planErrors: String? = nil, providers: [String] = [], segmentStart: Int? = nil, ended: String? = nil,
    deliveryFingerprint: String? = nil
  ) {
    self.deliveryFingerprint = deliveryFingerprint
    self.ended = ended
    self.segmentStart = segmentStart
    self.planErrors = planErrors
    self.providers = providers
    self.seqAnomalies = seqAnomalies
    self.appName = appName
    self.sourceLabel = sourceLabel
    self.planSummary = planSummary
    self.dropped = dropped
    self.sources = sources
    self.isLoading = isLoading
    self.slowdown = slowdown
  }
}

extension RecordSummary {
  /// Seconds since 1970.
  var seconds: Double { Double(timeMilliseconds) / 1000 }

  /// Violations, as the list counts them: the plan's (which include its report of each rule
  /// violation the hub recorded, so those count once), or the hub's findings where the plan has
  /// not counted them (no plan, not a tag, not checked yet).
  var violationCount: Int { max(planViolations, max(ruleViolations, hasRuleViolations ? 1 : 0)) }
}

extension Record {
  /// Seconds since 1970.
  var seconds: Double { Double(timeMilliseconds) / 1000 }
}
