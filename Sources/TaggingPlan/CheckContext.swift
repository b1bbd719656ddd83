import AnalyticsHub
import TagscopeRecording

/// The checks of one record against its plan entry, accumulating violations.
///
/// Records and plan parts are passed as arguments rather than stored, so the hot path (a record
/// that conforms) copies nothing and allocates nothing.
struct CheckContext {
  let tagItem: Int
  /// The timed event boundary, for `when: {phase:}`.
  let phase: CallCondition.Phase?
  /// The plan's file, for the violations' comparisons.
  let planFile: String
  var violations: [PlanViolation]

  private mutating func add(
    _ rule: ViolationRule, record: Record, entry: PlanEntry, provider: String? = nil, line: Int, item: Int?,
    evidence: ViolationEvidence, _ message: String
  ) {
    violations.append(
      PlanViolation(
        seq: record.seq, severity: entry.severity, rule: rule, tag: record.name, provider: provider,
        message: "\(PlanValidator.place(record)): \(message)", planLine: line, coverageItem: item,
        planFile: planFile, evidence: evidence))
  }

  /// Every check of `entry` on `record`, appending to `marks` the provider items checked (their
  /// rules left empty, for the caller to fill from ``violations``) and those whose provider was
  /// blocked.
  mutating func checkEntry(
    _ entry: PlanEntry, coverage: [ProviderCoverageIndex], record: Record, marks: inout [CoverageMark],
    memo: inout PatternMemo
  ) {
    if let rules = entry.properties { checkProperties(rules, entry: entry, record: record, memo: &memo) }
    if let screens = entry.screens { checkScreen(screens, entry: entry, record: record) }
    for position in entry.providers.indices {
      if let item = checkProvider(
        entry.providers[position], coverage: coverage[position], entry: entry, record: record, marks: &marks,
        memo: &memo)
      {
        marks.append(.seen(item, RuleMask()))
      }
    }
  }

  /// Required, typed and constrained properties; properties the entry does not list.
  mutating func checkProperties(
    _ rules: [PropertyRule], entry: PlanEntry, record: Record, memo: inout PatternMemo
  ) {
    for index in rules.indices {
      let name = rules[index].name
      let line = rules[index].location.line
      guard let value = record.properties[name], value != .null || !rules[index].nullIsAbsent else {
        if rules[index].required {
          add(
            .missingProperty, record: record, entry: entry, line: line, item: tagItem,
            evidence: .property(
              name: name, rule: rules[index], value: nil, planned: rules.map(\.name),
              carried: record.properties),
            "property \(name) is missing, plan line \(line) requires it")
        }
        continue
      }
      if let problem = rules[index].problem(with: value, memo: &memo) {
        add(
          problem.rule, record: record, entry: entry, line: line, item: tagItem,
          evidence: .property(name: name, rule: rules[index], value: value, planned: []),
          "property \(name) \(problem.found), plan line \(line) \(problem.expected)")
      } else if rules[index].checksContent {
        var problems: [ContentProblem] = []
        rules[index].contentProblems(
          in: value, path: name, missing: .missingProperty, memo: &memo, into: &problems)
        for problem in problems {
          add(
            problem.rule, record: record, entry: entry, line: problem.line, item: tagItem,
            evidence: .property(
              name: problem.path, rule: problem.constraint, value: problem.value, planned: problem.planned),
            "property \(problem.path) \(problem.found), plan line \(problem.line) \(problem.expected)")
        }
      }
    }
    let isStop = record.kind == .timedStop
    for index in record.properties.indices {
      let key = record.properties[index].key
      if rules.contains(where: { $0.name == key }) { continue }
      if isStop && (key == "duration" || key == "cancelled") { continue }
      let line = entry.propertiesLocation?.line ?? entry.location.line
      let planned = rules.isEmpty ? "no property" : rules.map(\.name).joined(separator: ", ")
      add(
        .unexpectedProperty, record: record, entry: entry, line: line, item: tagItem,
        evidence: .property(
          name: key, rule: nil, value: record.properties[index].value, planned: rules.map(\.name)),
        "property \(key) is not planned, plan line \(line) lists \(planned)")
    }
  }

  /// The screen the tag happened on, against the entry's `screens`.
  mutating func checkScreen(_ screens: [String], entry: PlanEntry, record: Record) {
    if let screen = record.context.screen, screens.contains(screen) { return }
    let line = entry.screensLocation?.line ?? entry.location.line
    let found = record.context.screen.map { "happened on \($0)" } ?? "happened with no current screen"
    add(
      .wrongScreen, record: record, entry: entry, line: line, item: tagItem,
      evidence: .screen(allowed: screens, actual: record.context.screen),
      "\(record.name) \(found), plan line \(line) allows only \(screens.joined(separator: ", "))")
  }

  /// One provider's expectations: those whose `when` holds or, when none does, those without
  /// `when`. Returns the coverage item to mark, if the provider was checked.
  mutating func checkProvider(
    _ plan: ProviderPlan, coverage: ProviderCoverageIndex, entry: PlanEntry, record: Record,
    marks: inout [CoverageMark], memo: inout PatternMemo
  ) -> Int? {
    guard let outputIndex = record.outputs.firstIndex(where: { $0.provider == plan.provider }) else {
      return nil
    }
    let screen = record.context.screen
    let item = coverage.item(screen: screen)
    if record.outputs[outputIndex].status == .blocked {
      // Nothing to check; the item notes why, if an expectation would have applied here.
      if let item,
        plan.calls.contains(where: {
          $0.condition == nil || $0.condition?.matches(screen: screen, phase: phase) == true
        })
      {
        marks.append(.blocked(item, record.outputs[outputIndex].reason))
      }
      return nil
    }
    var matched = false
    for index in plan.calls.indices
    where plan.calls[index].condition?.matches(screen: screen, phase: phase) == true {
      matched = true
      check(
        plan.calls[index], output: record.outputs[outputIndex], entry: entry, record: record, item: item,
        memo: &memo)
    }
    if !matched {
      for index in plan.calls.indices where plan.calls[index].condition == nil {
        matched = true
        check(
          plan.calls[index], output: record.outputs[outputIndex], entry: entry, record: record, item: item,
          memo: &memo)
      }
    }
    return matched ? item : nil
  }

  /// One expected call (or `none`) against what the provider received.
  mutating func check(
    _ expected: ExpectedCall, output: ProviderOutput, entry: PlanEntry, record: Record, item: Int?,
    memo: inout PatternMemo
  ) {
    let provider = output.provider
    let line = expected.location.line
    let receivedNothing = output.status == .dropped || output.calls.isEmpty
    if expected.isNone {
      guard !receivedNothing else { return }
      add(
        .unexpectedCall, record: record, entry: entry, provider: provider, line: line, item: item,
        evidence: .call(expected: expected, output: output),
        "\(provider) got \(Self.names(output.calls)), plan line \(line) expects no call")
      return
    }
    if output.status == .failed {
      let reason = output.reason.map { " (\($0))" } ?? ""
      add(
        .missingCall, record: record, entry: entry, provider: provider, line: line, item: item,
        evidence: .call(expected: expected, output: output),
        "\(provider) failed\(reason), plan line \(line) expects \(expected.label)")
      return
    }
    guard !receivedNothing else {
      add(
        .missingCall, record: record, entry: entry, provider: provider, line: line, item: item,
        evidence: .call(expected: expected, output: output),
        "\(provider) got no call (\(output.status.rawValue)), plan line \(line) expects \(expected.label)")
      return
    }
    guard let callIndex = output.calls.firstIndex(where: expected.identifies) else {
      add(
        .wrongName, record: record, entry: entry, provider: provider, line: line, item: item,
        evidence: .call(expected: expected, output: output),
        "\(provider) got \(Self.names(output.calls)), plan line \(line) expects \(expected.label)")
      return
    }
    for index in expected.params.indices {
      checkParam(
        expected.params[index], call: output.calls[callIndex], provider: provider, entry: entry,
        record: record, item: item, expected: expected, output: output, memo: &memo)
    }
  }

  /// One planned parameter of the call the provider received.
  private mutating func checkParam(
    _ param: PlannedParam, call: CallDescription, provider: String, entry: PlanEntry, record: Record,
    item: Int?, expected: ExpectedCall, output: ProviderOutput, memo: inout PatternMemo
  ) {
    let line = param.location.line
    guard let value = call.parameters[param.name] else {
      add(
        .missingParam, record: record, entry: entry, provider: provider, line: line, item: item,
        evidence: .call(expected: expected, output: output),
        "\(provider) \(call.name ?? call.method) has no parameter \(param.name), plan line \(line) expects it"
      )
      return
    }
    switch param.expectation {
    case .present:
      return
    case .value(let planned):
      if !PropertyRule.same(planned, value) {
        add(
          .invalidValue, record: record, entry: entry, provider: provider, line: line, item: item,
          evidence: .call(expected: expected, output: output),
          "\(provider) \(call.name ?? call.method) parameter \(param.name) is \(PropertyRule.quoted(value, key: param.name)), plan line \(line) expects \(PropertyRule.quoted(planned))"
        )
      }
    case .constrained(let rule):
      if let problem = rule.problem(with: value, memo: &memo) {
        add(
          problem.rule, record: record, entry: entry, provider: provider, line: line, item: item,
          evidence: .call(expected: expected, output: output),
          "\(provider) \(call.name ?? call.method) parameter \(param.name) \(problem.found), plan line \(line) \(problem.expected)"
        )
      } else if rule.checksContent {
        var problems: [ContentProblem] = []
        rule.contentProblems(
          in: value, path: param.name, missing: .missingParam, memo: &memo, into: &problems)
        for problem in problems {
          add(
            problem.rule, record: record, entry: entry, provider: provider, line: problem.line, item: item,
            evidence: .call(expected: expected, output: output),
            "\(provider) \(call.name ?? call.method) parameter \(problem.path) \(problem.found), plan line \(problem.line) \(problem.expected)"
          )
        }
      }
    }
  }

  /// `play_podcast_from_podcasts`, `logEvent a, setUserProperty b`: the calls received, by name.
  static func names(_ calls: [CallDescription]) -> String {
    calls.map { $0.name ?? $0.method }.joined(separator: ", ")
  }
}
