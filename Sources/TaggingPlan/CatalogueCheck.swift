import AnalyticsHub
import TagscopeRecording
import TagscopeTimeline

/// The checks of one provider output's calls against that provider's call catalogue.
enum CatalogueCheck {
  /// Checks each call `output` carries against `catalogue` (the plan's `catalogues` at
  /// `position`): a call no entry matches is `unplanned-call` (unless allowed); a matched call's
  /// parameters are checked as an object against the entry's `params` (missing → `missing-param`,
  /// inside values with their path), and the entry's coverage item is marked.
  static func check(
    _ output: ProviderOutput, record: Record, plan: Plan, position: Int, marks: inout [CoverageMark],
    memo: inout PatternMemo, into violations: inout [PlanViolation]
  ) {
    let catalogue = plan.catalogues[position]
    for call in output.calls {
      guard let entryIndex = catalogue.entryIndex(for: call) else {
        guard let severity = catalogue.unplanned.severity else { continue }
        let label = callLabel(call)
        violations.append(
          PlanViolation(
            seq: record.seq, severity: severity, rule: .unplannedCall, tag: record.name,
            provider: output.provider,
            message:
              "\(PlanValidator.place(record)): \(output.provider) got \(label), which the \(output.provider) catalogue (plan line \(catalogue.location.line)) does not list",
            planLine: catalogue.location.line, planFile: plan.file,
            evidence: .unplannedCall(provider: output.provider, call: call, catalogue: catalogue)))
        continue
      }
      let entry = catalogue.entries[entryIndex]
      let item = plan.catalogueItems[position][entryIndex]
      var problems: [ContentProblem] = []
      checkedParameters(of: call, entry: entry, fromSDK: record.isFromSDK, memo: &memo, into: &problems)
      var rules = RuleMask()
      let label = problems.isEmpty ? "" : callLabel(call)
      for problem in problems {
        rules.insert(problem.rule)
        violations.append(
          PlanViolation(
            seq: record.seq, severity: entry.severity, rule: problem.rule, tag: record.name,
            provider: output.provider,
            message:
              "\(PlanValidator.place(record)): \(output.provider) \(label) parameter \(problem.path) \(problem.found), plan line \(problem.line) \(problem.expected)",
            planLine: problem.line, coverageItem: item, planFile: plan.file,
            evidence: .catalogueParam(
              provider: output.provider, call: call, entry: entry, path: problem.path,
              rule: problem.constraint,
              value: problem.value, planned: problem.planned)))
      }
      marks.append(.seen(item, rules))
    }
  }

  /// The problems of `call`'s parameters against `entry`: the object at the entry's
  /// `propertiesAt` for a call an SDK sent (absent counts as empty, so required keys are missing;
  /// anything else in the way is a wrong type), the parameters themselves otherwise.
  private static func checkedParameters(
    of call: CallDescription, entry: CatalogueCall, fromSDK: Bool, memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    guard fromSDK, let path = entry.propertiesAt, !path.keys.isEmpty else {
      entry.parameterObject.contentProblems(
        in: .object(call.parameters), path: "", missing: .missingParam, memo: &memo, into: &problems)
      return
    }
    switch path.resolve(in: call.parameters) {
    case .object(let object):
      entry.parameterObject.contentProblems(
        in: .object(object), path: path.description, missing: .missingParam, memo: &memo, into: &problems)
    case .absent:
      entry.parameterObject.contentProblems(
        in: .object([:]), path: path.description, missing: .missingParam, memo: &memo, into: &problems)
    case .notObject(let prefix, let value):
      problems.append(
        ContentProblem(
          path: prefix, rule: .wrongType, found: "is \(PropertyRule.describe(value))",
          expected: "expects object (the catalogue's propertiesAt: \(path))", constraint: nil, value: value,
          line: entry.location.line, planned: []))
    }
  }
}
