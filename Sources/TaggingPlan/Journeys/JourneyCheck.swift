import AnalyticsHub
import TagscopeRecording

/// The journey rules of one record: its entry's `after`, `once` and `duplicateWithin`, the
/// funnels it is a step of, and the funnels its device's session leaves unfinished. The record
/// and the plan are passed to each step, not kept: a copy of either per record checked would
/// cost more than most checks.
struct JourneyCheck {
  let this: JourneyRecord
  var violations: [PlanViolation] = []
  var marks: [CoverageMark] = []

  init(record: Record, at place: RecordLine?) {
    this = JourneyRecord(record, at: place)
  }

  /// The plan entry of `record`'s tag, if planned.
  static func entry(of record: Record, plan: Plan) -> Int? {
    guard let kind = record.kind.tagKind, let section = PlanSection(kind: kind) else { return nil }
    return plan.entryIndex(section: section, name: record.name)
  }

  /// Whether `record` (of plan entry `entry`) leaves `device`'s rules as they are, in the same
  /// session and of no journey rule: then only its screen visit is counted, and nothing else is
  /// needed (most records).
  static func passes(_ record: Record, entry: Int?, plan: Plan, device: inout JourneyState.Device) -> Bool {
    guard record.kind != .sessionEnd, entry.map({ !plan.journeys.isRuled[$0] }) ?? true,
      record.context.session?.id == device.session
    else { return false }
    if record.kind == .screen { device.screenVisit += 1 }
    return true
  }

  /// Checks the record, of plan entry `entry`, against `device`'s state and updates it.
  mutating func run(
    _ record: Record, plan: Plan, device: inout JourneyState.Device, entry: Int?, work: inout Int
  ) {
    if !record.extra.isEmpty, case .string(let run)? = record.extra["run"], run != device.run {
      // Another run of the app on this device (a relaunch reconnecting to `listen`).
      if device.run != nil { device.launch += 1 }
      device.run = run
    }
    let session = record.context.session?.id
    if session != device.session {
      close(record, plan: plan, &device)
      device.session = session
    }
    if record.kind == .screen { device.screenVisit += 1 }
    if let entry {
      checkEntry(record, plan: plan, entry, &device, work: &work)
      for role in plan.journeys.roles[entry] {
        work += 1
        step(record, plan: plan, role, &device)
      }
    }
    if record.kind == .sessionEnd { close(record, plan: plan, &device) }
  }

  // MARK: - Entry rules

  private mutating func checkEntry(
    _ record: Record, plan: Plan, _ entry: Int, _ device: inout JourneyState.Device, work: inout Int
  ) {
    let rules = plan.entries[entry].journey
    if let predecessors = plan.journeys.after[entry] {
      work += 1
      var latest: JourneyState.Seen?
      var inSession = false
      for position in predecessors {
        guard let seen = device.predecessors[position] else { continue }
        if seen.token == device.epoch { inSession = true }
        if latest.map({ $0.record.seq < seen.record.seq }) ?? true { latest = seen }
      }
      if !inSession {
        let names = (rules.after ?? []).joined(separator: " or ")
        var text = "\(record.name) came with no \(names) before it in \(sessionText(record))"
        if let latest { text += "; the latest, \(latest.record.label), was in another session" }
        add(
          record, plan: plan, entry: entry, rule: .outOfOrder, location: rules.afterLocation, message: text,
          evidence: JourneyEvidence(
            rule: "after: [\((rules.after ?? []).joined(separator: ", "))]",
            expected: "\(names) earlier in the same session", actual: "none in \(sessionText(record))",
            record: this,
            otherRole: "needed", other: latest?.record))
      }
    }
    if plan.journeys.isPredecessor[entry] {
      device.predecessors[entry] = JourneyState.Seen(record: this, token: device.epoch)
    }
    if let scope = rules.once {
      work += 1
      let token = scope == .session ? device.epoch : scope == .screen ? device.screenVisit : device.launch
      if let first = device.once[entry], first.token == token {
        add(
          record, plan: plan, entry: entry, rule: .repeated, location: rules.onceLocation,
          message: "\(record.name) sent again in the same \(scope.noun); first sent as \(first.record.label)",
          evidence: JourneyEvidence(
            rule: "once: \(scope.rawValue)", expected: "at most once per \(scope.noun)",
            actual: "sent again", record: this, otherRole: "first", other: first.record))
      } else {
        device.once[entry] = JourneyState.Seen(record: this, token: token)
      }
    }
    if let window = rules.duplicateWithin {
      work += 1
      duplicate(record, plan: plan, entry, window: window, rules: rules, &device)
    }
  }

  private mutating func duplicate(
    _ record: Record, plan: Plan, _ entry: Int, window: Int64, rules: EntryJourneyRules,
    _ device: inout JourneyState.Device
  ) {
    var slots = device.duplicates.removeValue(forKey: entry) ?? DuplicateWindow()
    defer { device.duplicates[entry] = slots }
    if let earlier = slots.earlier(record.properties, at: this.time, window: window) {
      let gap = abs(this.time - earlier.time)
      add(
        record, plan: plan, entry: entry, rule: .duplicate, location: rules.duplicateLocation,
        message:
          "\(record.name) sent twice within \(JourneyDuration.text(window)) with the same properties: duplicates \(earlier.label), \(gap)ms earlier",
        evidence: JourneyEvidence(
          rule: "duplicateWithin: \(JourneyDuration.text(window))",
          expected: "no repeat with the same properties within \(JourneyDuration.text(window))",
          actual: "repeated \(gap)ms later", record: this, otherRole: "duplicates", other: earlier))
    }
    let forgotten = slots.remember(record.properties, record: this, window: window)
    guard forgotten > 0 else { return }
    let text = JourneyDuration.text(window)
    let line = rules.duplicateLocation.map { " (plan line \($0.line))" } ?? ""
    violations.append(
      PlanViolation(
        seq: record.seq, severity: .warning, rule: .duplicate, tag: record.name,
        message:
          "\(PlanValidator.place(record)): duplicateWithin \(text) of \(record.name) checked only in part here: more than \(DuplicateWindow.limit) different property sets within \(text) on this device, \(forgotten) of them forgotten (a repeat of one would not be found)\(line)",
        planLine: rules.duplicateLocation?.line, coverageItem: plan.tagItems[entry], planFile: plan.file,
        evidence: .journey(
          JourneyEvidence(
            rule: "duplicateWithin: \(text)",
            expected: "at most \(DuplicateWindow.limit) different property sets within \(text)",
            actual: "\(forgotten) forgotten", record: this, otherRole: "duplicates", other: nil))))
  }

  /// Whether a record of plan entry `entry` with `properties`, made at `time`, needs its full
  /// check: it duplicates one `device` remembers within the entry's `duplicateWithin` window, or
  /// the window is full (remembering it may forget sets, which is a warning): what
  /// ``duplicate(_:plan:_:window:rules:_:)`` finds.
  static func duplicates(
    _ entry: Int, of properties: Properties, at time: Int64, plan: Plan, device: JourneyState.Device
  )
    -> Bool
  {
    guard let window = plan.entries[entry].journey.duplicateWithin, let slots = device.duplicates[entry]
    else {
      return false
    }
    return slots.isFull() || slots.earlier(properties, at: time, window: window) != nil
  }

  /// ``duplicate(_:plan:_:window:rules:_:)`` of a record that ``duplicates(_:of:at:plan:device:)``
  /// does not: its properties remembered.
  static func remember(
    _ properties: Properties, of entry: Int, record: JourneyRecord, plan: Plan,
    device: inout JourneyState.Device
  ) {
    guard let window = plan.entries[entry].journey.duplicateWithin else { return }
    device.duplicates[entry, default: DuplicateWindow()].remember(properties, record: record, window: window)
  }

  // MARK: - Funnels

  /// Moves funnel `role.funnel` on with this record, one of its steps. Each break is one finding:
  /// a step past `maxGap` drops the attempt (its later steps then pass unremarked until step 1
  /// starts another); a step seen before the one expected is a `funnel-order` naming both, and the
  /// attempt goes on from the step seen (the steps skipped, when they come late, are earlier steps
  /// and leave it as it is).
  private mutating func step(
    _ record: Record, plan: Plan, _ role: JourneyIndex.FunnelRole, _ device: inout JourneyState.Device
  ) {
    let funnel = plan.funnels[role.funnel]
    let progress = device.funnels[role.funnel]
    let reached = progress?.reached ?? 0
    let found = Self.lowerBound(role.steps, reached)
    if progress == nil, role.steps[0] != 0, device.endedFunnels.contains(role.funnel) { return }
    if found < role.steps.count, role.steps[found] == reached {
      if let progress, let gap = funnel.maxGap, this.time - progress.last.time > gap {
        let late = this.time - progress.last.time
        addFunnel(
          record, plan: plan, role.funnel, rule: .funnelDropped, step: reached,
          message:
            "funnel \(funnel.name) dropped at step \(reached + 1) of \(funnel.steps.count) (\(funnel.steps[reached].tag)): it came \(JourneyDuration.text(late)) after step \(reached), \(progress.last.label), over maxGap \(JourneyDuration.text(gap))",
          actual: "step \(reached + 1) came \(JourneyDuration.text(late)) after step \(reached)",
          other: progress.last)
        device.funnels[role.funnel] = nil
        if role.steps[0] == 0 {
          Self.advance(plan: plan, role.funnel, from: 0, by: this, broken: false, &device, marks: &marks)
        } else {
          device.endedFunnels.insert(role.funnel)
        }
        return
      }
      Self.advance(
        plan: plan, role.funnel, from: reached, by: this, broken: progress?.broken ?? false, &device,
        marks: &marks)
    } else if found == 0 {
      // A later step than the one expected: one finding, and the attempt goes on from it.
      let next = role.steps[0]
      let before =
        progress.map { "; last step reached: \($0.last.label)" }
        ?? "; no step reached yet in \(sessionText(record))"
      addFunnel(
        record, plan: plan, role.funnel, rule: .funnelOrder, step: next,
        message:
          "funnel \(funnel.name) broken: step \(next + 1) of \(funnel.steps.count) (\(funnel.steps[next].tag)) came before step \(reached + 1) (\(funnel.steps[reached].tag))\(before)",
        actual: "step \(next + 1) before step \(reached + 1)", other: progress?.last)
      Self.advance(plan: plan, role.funnel, from: next, by: this, broken: true, &device, marks: &marks)
    }
    // Else an earlier step again (the user went back, or a step skipped came late): the attempt
    // keeps its progress.
  }

  /// Whether a step `role` of its funnel made at `time` on `device` moves the funnel on (within
  /// its `maxGap`) or repeats an earlier step: what ``step(_:plan:_:_:)`` does without a finding.
  static func movesOn(_ role: JourneyIndex.FunnelRole, time: Int64, plan: Plan, device: JourneyState.Device)
    -> Bool
  {
    let progress = device.funnels[role.funnel]
    if progress == nil, device.endedFunnels.contains(role.funnel) { return true }
    let reached = progress?.reached ?? 0
    let found = lowerBound(role.steps, reached)
    guard found < role.steps.count, role.steps[found] == reached else { return found > 0 }
    guard let progress, let gap = plan.funnels[role.funnel].maxGap else { return true }
    return time - progress.last.time <= gap
  }

  /// ``step(_:plan:_:_:)`` of `record` when it ``movesOn(_:time:plan:device:)``: the funnel moves
  /// on (reached: its coverage item's mark added to `marks`), or an earlier step leaves it as it is.
  static func moveOn(
    _ role: JourneyIndex.FunnelRole, record: JourneyRecord, plan: Plan, device: inout JourneyState.Device,
    marks: inout [CoverageMark]
  ) {
    let progress = device.funnels[role.funnel]
    let reached = progress?.reached ?? 0
    let found = lowerBound(role.steps, reached)
    guard found < role.steps.count, role.steps[found] == reached else { return }
    advance(
      plan: plan, role.funnel, from: reached, by: record, broken: progress?.broken ?? false, &device,
      marks: &marks)
  }

  /// Step `reached` of `funnel` is `record`: the funnel moves on, or its last step is seen (the
  /// attempt ended; if not `broken`, reached: its coverage item's mark added to `marks`).
  private static func advance(
    plan: Plan, _ funnel: Int, from reached: Int, by record: JourneyRecord, broken: Bool,
    _ device: inout JourneyState.Device,
    marks: inout [CoverageMark]
  ) {
    device.endedFunnels.remove(funnel)
    if reached + 1 == plan.funnels[funnel].steps.count {
      device.funnels[funnel] = nil
      device.endedFunnels.insert(funnel)
      if !broken { marks.append(.seen(plan.journeys.funnelItems[funnel], RuleMask())) }
    } else {
      device.funnels[funnel] = JourneyState.Progress(reached: reached + 1, last: record, broken: broken)
    }
  }

  /// The device's session ends (or another starts): its unfinished funnels dropped, its session
  /// rules start afresh.
  private mutating func close(_ record: Record, plan: Plan, _ device: inout JourneyState.Device) {
    for (funnel, progress) in device.funnels.sorted(by: { $0.key < $1.key }) {
      let steps = plan.funnels[funnel].steps
      addFunnel(
        record, plan: plan, funnel, rule: .funnelDropped, step: progress.reached,
        message:
          "funnel \(plan.funnels[funnel].name) dropped at step \(progress.reached + 1) of \(steps.count) (\(steps[progress.reached].tag)): session \(device.session ?? "(none)") ended after step \(progress.reached), \(progress.last.label)",
        actual: "session ended after step \(progress.reached)", other: progress.last)
    }
    Self.restart(&device, entries: plan.entries)
  }

  /// A new session's rules on `device`, its unfinished funnels (if any) forgotten: no `once:
  /// session` record seen yet, a new epoch.
  static func restart(_ device: inout JourneyState.Device, entries: [PlanEntry]) {
    device.funnels.removeAll()
    device.endedFunnels.removeAll()
    device.once = device.once.filter { entries[$0.key].journey.once != .session }
    device.epoch += 1
  }

  // MARK: - Findings

  private func sessionText(_ record: Record) -> String {
    record.context.session.map { "session \($0.id)" } ?? "the same session"
  }

  private mutating func add(
    _ record: Record, plan: Plan, entry: Int, rule: ViolationRule, location: SourceLocation?, message: String,
    evidence: JourneyEvidence
  ) {
    let item = plan.tagItems[entry]
    let line = location.map { " (plan line \($0.line))" } ?? ""
    violations.append(
      PlanViolation(
        seq: record.seq, severity: plan.entries[entry].severity, rule: rule, tag: record.name,
        message: "\(PlanValidator.place(record)): \(message)\(line)", planLine: location?.line,
        coverageItem: item,
        planFile: plan.file, evidence: .journey(evidence)))
    marks.append(.seen(item, RuleMask([rule])))
  }

  private mutating func addFunnel(
    _ record: Record, plan: Plan, _ funnel: Int, rule: ViolationRule, step: Int, message: String,
    actual: String, other: JourneyRecord?
  ) {
    let file = plan.file
    let item = plan.journeys.funnelItems[funnel]
    let plan = plan.funnels[funnel]
    let location = plan.steps[step].location
    violations.append(
      PlanViolation(
        seq: record.seq, severity: plan.severity, rule: rule, tag: record.name,
        message: "\(PlanValidator.place(record)): \(message) (plan line \(location.line))",
        planLine: location.line,
        coverageItem: item, planFile: file,
        evidence: .journey(
          JourneyEvidence(
            rule: "funnel \(plan.name)",
            expected: plan.steps.count <= 6
              ? plan.steps.map(\.tag).joined(separator: " → ") : "its \(plan.steps.count) steps in order",
            actual: actual, record: this, otherRole: "last step", other: other))))
    marks.append(.seen(item, RuleMask([rule])))
  }

  /// The first position in ascending `values` whose value is not below `value`.
  static func lowerBound(_ values: [Int], _ value: Int) -> Int {
    var low = 0
    var high = values.count
    while low < high {
      let mid = (low + high) / 2
      if values[mid] < value { low = mid + 1 } else { high = mid }
    }
    return low
  }
}

extension JourneyState {
  /// Checks `record` against the plan's journey rules, appending its findings to `violations`
  /// and what they did to coverage to `marks` (a tag item's rules joined with its mark there).
  mutating func check(
    _ record: Record, plan: Plan, marks: inout [CoverageMark], from first: Int,
    into violations: inout [PlanViolation]
  ) {
    devices.select(record.source ?? "", make: Device.init)
    let entry = JourneyCheck.entry(of: record, plan: plan)
    var work = work
    var ran: JourneyCheck?
    devices.updateLatest { device in
      guard !JourneyCheck.passes(record, entry: entry, plan: plan, device: &device) else { return }
      var check = JourneyCheck(record: record, at: place)
      check.run(record, plan: plan, device: &device, entry: entry, work: &work)
      ran = check
    }
    self.work = work
    guard let check = ran else { return }
    violations.append(contentsOf: check.violations)
    for mark in check.marks {
      if case .seen(let item, let rules) = mark, !rules.isEmpty,
        let index = marks[first...].lastIndex(where: {
          if case .seen(item, _) = $0 { return true } else { return false }
        }),
        case .seen(_, var joined) = marks[index]
      {
        joined.formUnion(rules)
        marks[index] = .seen(item, joined)
      } else {
        marks.append(mark)
      }
    }
  }
}
