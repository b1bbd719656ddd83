import AnalyticsHub
import AnalyticsProvidersCore
import TagscopeRecording
import TagscopeVendors

/// What a validation keeps from one record to the next besides coverage: remembered pattern
/// results and, per `listen` source, the provider rule counts.
public struct ValidationState: Sendable {
  var patterns = PatternMemo()
  /// What the privacy check found in the texts it scanned.
  var privacy = PrivacyMemo()
  /// The providers' rules recorded calls are checked with.
  public let rules: ProviderRuleChecks
  var streams: [String: any RecordedRuleStream] = [:]
  /// The journey rules' state: per device, its session and what later records are compared with.
  package var journeys = JourneyState()
  /// The consent check's state: per in-app device, its consent decisions so far.
  package var consent = ConsentTracker()

  /// Nothing remembered yet; recorded calls are checked with `rules`.
  public init(rules: ProviderRuleChecks) {
    self.rules = rules
  }
}

/// Checks records against a plan, one at a time, and keeps the coverage.
///
/// Rules, in order, for each record:
/// - every call of a provider the plan has a catalogue for (`catalogues:`) is checked against it:
///   `unplanned-call` when no entry matches, else its parameters against the entry's constraints
///   (for every record, planned or not, in-app or from `listen`);
/// - every provider output's calls are checked against the provider's documented rules
///   (the `rules:` it is given, with one stream of them per `source`) and, with the rule
///   violations the recording carries (the hub's or `listen`'s, each rule reported once), become
///   `provider-rule` violations (for every record, planned or not; `degraded` consequences are
///   warnings, others errors);
/// - lifecycle records (sessions, identify, reset, consent) are not checked against the plan, and
///   timed event records only when the plan has a `timed` section: plans describe the app's own
///   tags, not the hub's bookkeeping, so these never flood `unplanned-tag`;
/// - a screen/action/event/state (or timed event) the plan does not list is `unplanned-tag`
///   (not when the plan has catalogues and no tag section: it only describes provider calls);
/// - properties are checked only when the entry has `properties` (a timed stop may also carry the
///   hub's `duration` and `cancelled`); the tag's screen against `screens`;
/// - journey rules (an entry's `after`, `once`, `duplicateWithin`, the plan's `funnels`) compare
///   the record with earlier ones of its device (`source`) and session, for every record; a
///   session's end (or another session starting) drops its unfinished funnels;
/// - each planned provider is checked only when it appears in the record's outputs (a record from
///   `listen` carries only the SDK that sent it). A `blocked` provider (disabled or no consent) is
///   expected behaviour: nothing is checked and it does not count as coverage. Of a provider's
///   expectations, those whose `when` holds apply; when none does, those without `when` apply. `dropped` (the
///   mapping returned nothing) and `failed` (the SDK threw) are `missing-call` where a call is
///   planned.
public struct PlanValidator: Sendable {
  public let plan: Plan
  /// What has been seen so far.
  public private(set) var coverage: Coverage
  /// How many records were checked.
  public private(set) var records = 0
  var state: ValidationState
  /// What the record being validated did to coverage items (reused, so records allocate none).
  private var scratch: [CoverageMark] = []

  /// A validator with nothing seen yet, checking recorded calls with `rules` (the rule sets of the
  /// providers an app links, or the tools' `.allProviders`).
  public init(plan: Plan, rules: ProviderRuleChecks) {
    self.plan = plan
    coverage = Coverage(items: plan.coverageItems)
    state = ValidationState(rules: rules)
  }

  /// The providers' rules recorded calls are checked with.
  public var rules: ProviderRuleChecks { state.rules }

  /// What the journey rules remember (for the bound tests).
  package var journeyState: JourneyState { state.journeys }

  /// What the consent check remembers (for the bound tests).
  package var consentState: ConsentTracker { state.consent }

  /// Checks one record, updates the coverage and returns its violations (usually none).
  public mutating func validate(_ record: Record) -> [PlanViolation] {
    records += 1
    scratch.removeAll(keepingCapacity: true)
    let found = Self.check(record, plan: plan, marks: &scratch, state: &state)
    coverage.apply(scratch)
    return found
  }

  /// ``validate(_:)``, also appending to `marks` what the record did to coverage items, so an
  /// identical record can be replayed with ``replay(marks:)``.
  package mutating func validate(_ record: Record, marks: inout [CoverageMark]) -> [PlanViolation] {
    records += 1
    let start = marks.count
    let found = Self.check(record, plan: plan, marks: &marks, state: &state)
    coverage.apply(marks[start...])
    return found
  }

  /// The checks of `record` on its own, without counting it or applying coverage: what an
  /// identical record gets too. Finish with ``complete(_:marks:violations:)``.
  package mutating func checkOwn(_ record: Record, marks: inout [CoverageMark]) -> [PlanViolation] {
    Self.checkTag(record, plan: plan, marks: &marks, state: &state)
  }

  /// Finishes a record whose own checks were made by ``checkOwn(_:marks:)`` (for it or for an
  /// identical record, `record` then carrying this one's `seq` and `time`): the checks that compare
  /// it with earlier records (``Plan/hasSequenceRules``) add to `marks` and `violations`; the
  /// record is counted and its marks applied to coverage.
  package mutating func complete(
    _ record: Record, marks: inout [CoverageMark], violations: inout [PlanViolation]
  ) {
    records += 1
    Self.checkSequence(record, plan: plan, marks: &marks, from: 0, state: &state, into: &violations)
    coverage.apply(marks)
  }

  /// Where the next record is in its recording (`nil` in a live session): the journey and consent
  /// findings name it and the records they compare it with by file and line.
  package var recordLine: RecordLine? {
    get { state.journeys.place }
    set {
      state.journeys.place = newValue
      state.consent.place = newValue
    }
  }

  /// A new recording starts: a new app instance, whose provider counts start from zero.
  package mutating func startRecording() {
    state.streams = [:]
    state.journeys.startRecording()
    state.consent.startRecording()
  }

  /// A live session's new segment (`POST /reset`, as a UI test does between tests): the journey
  /// rules start afresh, as in a new app launch; provider counts and consent go on.
  package mutating func startAppLaunch() {
    state.journeys.startRecording()
  }

  /// Counts a record identical to one validated before: one more record, the same coverage.
  package mutating func replay(marks: [CoverageMark]) {
    records += 1
    coverage.apply(marks)
  }

  /// Checks one record against `plan` (its recorded calls with `rules`), marking what it covers in
  /// `coverage`.
  public static func check(_ record: Record, plan: Plan, coverage: inout Coverage, rules: ProviderRuleChecks)
    -> [PlanViolation]
  {
    var state = ValidationState(rules: rules)
    return check(record, plan: plan, coverage: &coverage, state: &state)
  }

  /// ``check(_:plan:coverage:rules:)``, keeping what lasts across records (pattern results, the
  /// provider counts of each `listen` source) in `state`.
  public static func check(
    _ record: Record, plan: Plan, coverage: inout Coverage, state: inout ValidationState
  )
    -> [PlanViolation]
  {
    var marks: [CoverageMark] = []
    let found = check(record, plan: plan, marks: &marks, state: &state)
    coverage.apply(marks)
    return found
  }

  /// Checks one record, appending to `marks` each item it was checked against (the tag's, and
  /// each provider's whose expectation applied) with the rules it broke there, and each item
  /// whose provider was blocked; then, when the plan has journey rules, the record's place in its
  /// device's session (``JourneyState``).
  static func check(
    _ record: Record, plan: Plan, marks: inout [CoverageMark], state: inout ValidationState
  ) -> [PlanViolation] {
    let first = marks.count
    var violations = checkTag(record, plan: plan, marks: &marks, state: &state)
    checkSequence(record, plan: plan, marks: &marks, from: first, state: &state, into: &violations)
    return violations
  }

  /// The checks of one record on its own (all but those that compare it with earlier records).
  static func checkTag(
    _ record: Record, plan: Plan, marks: inout [CoverageMark], state: inout ValidationState
  ) -> [PlanViolation] {
    var violations: [PlanViolation] = []
    appendPrivacyFindings(of: record, plan: plan, memo: &state.privacy, to: &violations)
    guard let kind = record.kind.tagKind else { return violations }
    let section = PlanSection(kind: kind)
    let entryIndex = section.flatMap { plan.entryIndex(section: $0, name: record.name) }
    for index in record.outputs.indices
    where !record.outputs[index].violations.isEmpty || !record.outputs[index].calls.isEmpty {
      appendRuleViolations(
        of: record.outputs[index], in: record, plan: plan, entryIndex: entryIndex, state: &state,
        to: &violations)
    }
    if !plan.catalogues.isEmpty {
      for index in record.outputs.indices
      where record.outputs[index].status != .blocked && !record.outputs[index].calls.isEmpty {
        if let position = plan.catalogueIndex[record.outputs[index].provider] {
          CatalogueCheck.check(
            record.outputs[index], record: record, plan: plan, position: position, marks: &marks,
            memo: &state.patterns, into: &violations)
        }
      }
    }
    guard let section else { return violations }
    guard let entryIndex else {
      if section == .timed && !plan.sections.contains(.timed) { return violations }
      // A plan of catalogues only (an imported one) says nothing of the app's own tags.
      if plan.sections.isEmpty && !plan.catalogues.isEmpty { return violations }
      violations.append(
        PlanViolation(
          seq: record.seq, severity: plan.unplannedSeverity, rule: .unplannedTag, tag: record.name,
          message: "\(place(record)): \(section.noun) \(record.name) is not in the plan", planFile: plan.file,
          evidence: .unplanned(section: section, name: record.name)))
      return violations
    }
    let tagItem = plan.tagItems[entryIndex]
    var context = CheckContext(
      tagItem: tagItem, phase: phase(of: record, kind: kind), planFile: plan.file, violations: violations)
    let start = marks.count
    marks.append(.seen(tagItem, RuleMask()))
    context.checkEntry(
      plan.entries[entryIndex], coverage: plan.providerItems[entryIndex], record: record, marks: &marks,
      memo: &state.patterns)
    if !context.violations.isEmpty {
      for index in start..<marks.count {
        if case .seen(let item, _) = marks[index] {
          marks[index] = .seen(item, rules(of: context.violations, on: item))
        }
      }
    }
    return context.violations
  }

  /// The rules `violations` break on coverage item `item`.
  private static func rules(of violations: [PlanViolation], on item: Int) -> RuleMask {
    var mask = RuleMask()
    for violation in violations where violation.coverageItem == item { mask.insert(violation.rule) }
    return mask
  }

  /// Appends the `provider-rule` violations of one output.
  private static func appendRuleViolations(
    of output: ProviderOutput, in record: Record, plan: Plan, entryIndex: Int?, state: inout ValidationState,
    to violations: inout [PlanViolation]
  ) {
    let rules = ruleViolations(of: output, in: record, state: &state)
    guard !rules.isEmpty else { return }
    let item = entryIndex.flatMap { index in
      plan.providerItems[index].first { $0.provider == output.provider }?.item(screen: record.context.screen)
        ?? plan.tagItems[index]
    }
    for rule in rules {
      violations.append(
        PlanViolation(
          seq: record.seq, severity: rule.consequence == "degraded" ? .warning : .error, rule: .providerRule,
          tag: record.name, provider: output.provider,
          message: "\(place(record)): \(output.provider) rule \(rule.rule) broken: \(rule.message)",
          coverageItem: item, planFile: plan.file, evidence: .providerRule(rule: rule, output: output)))
    }
  }

  /// The provider rules an output breaks: those the hub recorded (`outputs[].violations`), and
  /// those the provider's documented rules (the state's `rules`, one stream per `source` and one for
  /// the records without one, counting across records as the SDK does) find in its calls that the
  /// hub did not record (same rule id), so a recording from an app built without rule checks, or
  /// written by another tool, is checked the same and nothing is reported twice. GA4 Measurement
  /// Protocol payloads are left to `listen`'s GA4 validation, as `listen` does.
  static func ruleViolations(of output: ProviderOutput, in record: Record, state: inout ValidationState)
    -> [RecordViolation]
  {
    guard !output.calls.isEmpty, output.provider != Vendors.ga4.rawValue else { return output.violations }
    let rules = state.rules
    let found = state.streams[record.source ?? "", default: rules.makeStream()].check(
      provider: output.provider, calls: output.calls)
    guard !found.isEmpty else { return output.violations }
    guard !output.violations.isEmpty else { return found.map(RecordViolation.init) }
    var result = output.violations
    for violation in found where !output.violations.contains(where: { $0.rule == violation.rule }) {
      result.append(RecordViolation(violation))
    }
    return result
  }

  /// The timed event boundary of a record: start, stop, or cancel (a stop with `cancelled: true`).
  static func phase(of record: Record, kind: TagKind) -> CallCondition.Phase? {
    switch kind {
    case .timedStart: return .start
    case .timedStop: return record.properties["cancelled"] == .bool(true) ? .cancel : .stop
    default: return nil
    }
  }

  /// `playPodcast on favorites`, or `playPodcast` when no screen is current.
  static func place(_ record: Record) -> String {
    if record.kind == .screen { return "screen \(record.name)" }
    guard let screen = record.context.screen else { return record.name }
    return "\(record.name) on \(screen)"
  }
}
