import TaggingPlan
import TagscopeRecording
import TagscopeTimeline

/// The inspector's ``Timeline`` (file-backed, indexed, keyframed) as the debugger's
/// ``TimelineSource``: replay, the live demo and `listen` all read through it.
public final class InspectorTimelineSource: TimelineSource {
  /// The timeline read.
  public let timeline: Timeline
  private let appName: String
  private let sourceLabel: String
  /// Tagging-plan results, when a plan is checked.
  public let plan: (any PlanFeed)?
  /// The live session's delivery ledger, when one follows the records (`listen`, the demo).
  public let delivery: (any DeliveryFeed)?
  private let slowdown: (@Sendable () -> String?)?
  private let connections: (@Sendable () -> [SourceConnection])?
  private let ended: (@Sendable () -> String?)?

  /// An adapter over `timeline`, labelled `sourceLabel` in the header, with `plan` results if any;
  /// `slowdown` says why the source is going slower than asked, while it is (the live demo's
  /// simulator waiting for its recording); `connections` tells how `listen`'s sources stand;
  /// `ended` names an input that ended (``SourceInfo/ended``); `delivery` is the live session's
  /// delivery ledger, if any.
  public init(
    timeline: Timeline, sourceLabel: String, plan: (any PlanFeed)? = nil,
    slowdown: (@Sendable () -> String?)? = nil, connections: (@Sendable () -> [SourceConnection])? = nil,
    ended: (@Sendable () -> String?)? = nil, delivery: (any DeliveryFeed)? = nil
  ) {
    self.delivery = delivery
    self.ended = ended
    self.connections = connections
    self.timeline = timeline
    appName = timeline.header.app ?? "recording"
    self.sourceLabel = sourceLabel
    self.plan = plan
    self.slowdown = slowdown
  }

  public var count: Int { timeline.count }

  public var info: SourceInfo {
    SourceInfo(
      appName: appName, sourceLabel: sourceLabel,
      planSummary: plan.map(\.headerText).flatMap { $0.isEmpty ? nil : $0 },
      dropped: timeline.gaps.reduce(0) { $0 + $1.marker.count }, sources: timeline.sources,
      isLoading: timeline.isIndexing, slowdown: slowdown?(), seqAnomalies: timeline.sequence.anomalies,
      planErrors: plan.map(\.errorsText), providers: timeline.providers,
      segmentStart: timeline.gaps.last { $0.marker.origin == "reset" }?.beforeIndex, ended: ended?(),
      deliveryFingerprint: delivery?.fingerprint())
  }

  public func summaries(in range: Range<Int>) -> [RecordSummary] { timeline.summaries(in: range) }

  public func time(at index: Int) -> Double? {
    timeline.timeMilliseconds(at: index).map { Double($0) / 1000 }
  }

  public func record(at index: Int) -> Result<Record, TimelineError> {
    Result { () throws(TimelineError) in try timeline.record(at: index) }
  }

  public func state(at index: Int) -> TimelineState? { try? timeline.state(at: index) }

  public func filter(_ filter: TimelineFilter, in range: Range<Int>) -> [Int] {
    (try? timeline.filter(filter, in: range)) ?? []
  }

  public func nextViolation(after index: Int) -> Int? { timeline.nextViolation(after: index) }

  public func previousViolation(before index: Int) -> Int? { timeline.previousViolation(before: index) }

  public func findings(at index: Int) -> [PlanFinding] { plan?.findings(at: index) ?? [] }

  public func deliveryStates() -> [Int: [String]]? { delivery?.statesByPosition() }

  public func deliveries(at index: Int) -> [CallDelivery]? { delivery?.calls(at: index) }

  public func planChecklist() -> [ChecklistItem] { plan?.checklist() ?? [] }

  public func comparisons(at index: Int) -> [Comparison] {
    var found = plan?.comparisons(at: index) ?? []
    // The provider rules the record's outputs carry (the hub's findings) when the plan did not
    // report them itself.
    if let record = try? timeline.record(at: index) {
      for output in record.outputs {
        // The plan reports a provider's rule as `plan.provider-rule` naming the rule in its title.
        for violation in output.violations
        where !found.contains(where: { item in
          item.shows(rule: violation.rule) || item.expectation.title.contains(violation.rule)
            || item.expectation.rows.contains {
              $0.field == "\(output.provider) rule" && $0.expected == violation.rule
            }
        }) {
          let call = violation.callIndex.flatMap { $0 < output.calls.count ? output.calls[$0] : nil }
          found.append(
            Comparison(
              rule: violation.rule, message: violation.message,
              expectation: ExpectationComparison(
                planFile: "", planLine: nil, title: "\(output.provider) rule",
                rows: [
                  ExpectationComparison.Row(
                    field: call.map { "\($0.method) call" } ?? "output", expected: violation.message,
                    actual: call.map { $0.name ?? $0.method } ?? output.status.rawValue, differs: true)
                ])))
        }
      }
    }
    return found
  }

  public func sourceOverview() -> [SourceOverview] {
    let known = connections?() ?? []
    return timeline.sourceStatistics().map { statistics in
      SourceOverview(statistics: statistics, connection: known.first { $0.name == statistics.name })
    }
  }

  /// Records of one tag read for a draft at most (the most recent ones).
  static let draftRecordLimit = 2_000

  public func draftPlanEntry(at index: Int) -> Result<PlanEntryPreview, PlanEntryFailure> {
    guard let plan else { return .failure(PlanEntryFailure("no plan loaded: start with --plan FILE")) }
    let record: Record
    switch self.record(at: index) {
    case .success(let found): record = found
    case .failure(let error): return .failure(PlanEntryFailure(error.description))
    }
    let kinds: Set<RecordKind> =
      record.kind == .timedStart || record.kind == .timedStop ? [.timedStart, .timedStop] : [record.kind]
    let positions = filter(TimelineFilter(kinds: kinds, name: .exact(record.name)), in: 0..<count)
    var records: [Record] = []
    for position in positions.suffix(Self.draftRecordLimit) {
      if case .success(let other) = self.record(at: position), other.name == record.name {
        records.append(other)
      }
    }
    return plan.draftEntry(from: records.isEmpty ? [record] : records)
  }

  public func addPlanEntry(_ preview: PlanEntryPreview) -> Result<String, PlanEntryFailure> {
    guard let plan else { return .failure(PlanEntryFailure("no plan loaded")) }
    return plan.addEntry(preview)
  }

  public func export(_ indices: [Int], to path: String) -> Result<Int, TimelineError> {
    Result { () throws(TimelineError) in try timeline.export(positions: indices, to: path) }
  }

  public func export(_ indices: [Int], to path: String, redactingWith salt: String) -> Result<
    Int, TimelineError
  > {
    var redactor = Redactor(salt: salt)
    return Result { () throws(TimelineError) in
      try timeline.export(positions: indices, to: path) { redactor.redact(line: $0, into: &$1) }
    }
  }
}
