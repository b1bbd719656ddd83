import AnalyticsHub
import TagscopeRecording
import TagscopeVendors

/// The checks of one provider output's calls against that provider's call catalogue.
enum CatalogueCheck {
  /// Checks each call `output` carries against `catalogue` (the plan's `catalogues` at
  /// `position`): a call no entry matches is `unplanned-call` (unless allowed); a matched call's
  /// parameters are checked as an object against the entry's `params` (missing → `missing-param`,
  /// inside values with their path), and the entry's coverage item is marked; so are the
  /// self-describing entities at the catalogue's `entitiesAt`. A call naming a version the
  /// catalogue lacks is checked against the newest, and its violations say so.
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
      var problems: [ContentProblem] = []
      checkedParameters(
        of: call, entry: entry, sdk: catalogue.sdkProperties, fromSDK: record.isFromSDK,
        valuesAsText: catalogue.valuesAsText, memo: &memo, into: &problems)
      if record.isFromSDK, let message = entry.messageObject {
        message.objectProblems(
          in: .object(call.parameters), path: "", missing: .missingParam, memo: &memo, into: &problems)
      }
      let found = Found(
        record: record, provider: output.provider, call: call, plan: plan, position: position)
      found.report(
        problems, entry: entryIndex, what: "\(callLabel(call))\(substitute(entry, for: call.name))",
        marks: &marks, into: &violations)
      if let path = catalogue.entitiesAt {
        checkEntities(at: path, found: found, marks: &marks, memo: &memo, into: &violations)
      }
    }
    if let entryIndex = catalogue.batchEntry,
      case .object(let batch)? = output.extra[CallCatalogue.batchField]
    {
      checkBatch(
        batch, output: output, record: record, plan: plan, position: position, entry: entryIndex,
        marks: &marks,
        memo: &memo, into: &violations)
    }
  }

  /// Checks the fields of a batch `output` keeps (on the batch's first record) against the
  /// catalogue's ``CallCatalogue/batchEntry`` at `entry`, as the parameters of a call of
  /// ``CallCatalogue/batchMethod``: once per batch, its problems at the batch's own keys
  /// (`user_attributes.age`, a mobile SDK's `ua.age`, `ui[1].i`).
  private static func checkBatch(
    _ batch: Properties, output: ProviderOutput, record: Record, plan: Plan, position: Int, entry: Int,
    marks: inout [CoverageMark], memo: inout PatternMemo, into violations: inout [PlanViolation]
  ) {
    let call = CallDescription(method: CallCatalogue.batchMethod, name: nil, parameters: batch)
    var problems: [ContentProblem] = []
    checkedParameters(
      of: call, entry: plan.catalogues[position].entries[entry], sdk: plan.catalogues[position].sdkProperties,
      fromSDK: record.isFromSDK,
      valuesAsText: plan.catalogues[position].valuesAsText, memo: &memo, into: &problems)
    let found = Found(record: record, provider: output.provider, call: call, plan: plan, position: position)
    found.report(
      problems, entry: entry, what: "\(CallCatalogue.batchMethod) (its own fields, kept on this record)",
      marks: &marks, into: &violations)
  }

  /// ` (checked against NAME, the newest version the catalogue has)` when `entry` is another
  /// version than the `name` a call or entity gave; empty otherwise.
  static func substitute(_ entry: CatalogueCall, for name: String?) -> String {
    guard let name, let planned = entry.name, planned != name else { return "" }
    return " (not in the catalogue: checked against \(planned), the newest version it has)"
  }

  /// A call being checked: the record, provider output and catalogue it belongs to.
  struct Found {
    var record: Record
    var provider: String
    var call: CallDescription
    var plan: Plan
    var position: Int

    /// Reports `problems` of what `entry` (a position in the catalogue's entries) matched
    /// (`what`, the call's or entity's label) and marks the entry's coverage item.
    func report(
      _ problems: [ContentProblem], entry index: Int, what: String, marks: inout [CoverageMark],
      into violations: inout [PlanViolation]
    ) {
      let entry = plan.catalogues[position].entries[index]
      let item = plan.catalogueItems[position][index]
      var rules = RuleMask()
      for problem in problems {
        rules.insert(problem.rule)
        violations.append(
          PlanViolation(
            seq: record.seq, severity: entry.severity, rule: problem.rule, tag: record.name,
            provider: provider,
            message:
              "\(PlanValidator.place(record)): \(provider) \(what) parameter \(problem.path.isEmpty ? "object" : problem.path) \(problem.found), plan line \(problem.line) \(problem.expected)",
            planLine: problem.line, coverageItem: item, planFile: plan.file,
            evidence: .catalogueParam(
              provider: provider, call: call, entry: entry, path: problem.path, rule: problem.constraint,
              value: problem.value, planned: problem.planned, carried: problem.carried)))
      }
      marks.append(.seen(item, rules))
    }
  }

  /// The problems of `call`'s parameters against `entry`: the object at the entry's
  /// `propertiesAt` for a call an SDK sent (absent counts as empty, so required keys are missing;
  /// anything else in the way is a wrong type), the parameters themselves otherwise. With
  /// `valuesAsText`, an SDK's text values there are read as ``PropertyRule/readingText(_:)`` says.
  /// A closed entry leaves out the properties its SDK adds itself (`sdk`) and it does not list
  /// (``CatalogueCall/leavingOutUnlistedSDKProperties(_:in:)``).
  private static func checkedParameters(
    of call: CallDescription, entry: CatalogueCall, sdk: Vendor.SDKProperties, fromSDK: Bool,
    valuesAsText: Bool,
    memo: inout PatternMemo,
    into problems: inout [ContentProblem]
  ) {
    guard fromSDK, let path = entry.propertiesAt, !path.keys.isEmpty else {
      let own =
        fromSDK ? entry.leavingOutUnlistedSDKProperties(sdk, in: call.parameters) : call.parameters
      let read = fromSDK && valuesAsText ? entry.parameterObject.readingText(own) : own
      entry.parameterObject.objectProblems(
        in: .object(read), path: "", missing: .missingParam, memo: &memo, into: &problems)
      return
    }
    switch path.resolve(in: call.parameters) {
    case .object(let object):
      let own = entry.leavingOutUnlistedSDKProperties(sdk, in: object)
      let read = valuesAsText ? entry.parameterObject.readingText(own) : own
      entry.parameterObject.objectProblems(
        in: .object(read), path: path.description, missing: .missingParam, memo: &memo, into: &problems)
    case .absent:
      entry.parameterObject.objectProblems(
        in: .object([:]), path: path.description, missing: .missingParam, memo: &memo, into: &problems)
    case .notObject(let prefix, let value):
      problems.append(
        ContentProblem(
          path: prefix, rule: .wrongType, found: "is \(PropertyRule.describe(value, key: prefix))",
          expected: "expects object (the catalogue's propertiesAt: \(path))", constraint: nil, value: value,
          line: entry.location.line, planned: []))
    }
  }
}
