import AnalyticsHub
import TagscopeRecording

/// What a violation compares: the plan's part it breaks and the record's part that breaks it,
/// kept on the violation's shared detail (copies of values already in memory, nothing formatted).
package indirect enum ViolationEvidence: Sendable {
  /// A tag the plan does not list.
  case unplanned(section: PlanSection, name: String)
  /// A property against its rule (`rule` nil: not planned; `value` nil: absent). `planned` names
  /// the entry's properties, for an unexpected or a missing one; `carried` is the record's
  /// properties, for a missing one (what it carried instead).
  case property(
    name: String, rule: PropertyRule?, value: PropertyValue?, planned: [String], carried: Properties = [:])
  /// The screen the tag happened on against the entry's `screens`.
  case screen(allowed: [String], actual: String?)
  /// A provider expectation against what that provider received.
  case call(expected: ExpectedCall, output: ProviderOutput)
  /// A provider's documented rule broken by what it received.
  case providerRule(rule: RecordViolation, output: ProviderOutput)
  /// A call the provider's catalogue has no entry for.
  case unplannedCall(provider: String, call: CallDescription, catalogue: CallCatalogue)
  /// A parameter of a call (at `path`, inside one) against its catalogue entry's constraint
  /// (`rule` nil: not planned; `value` nil: absent). `planned` names the planned keys there, for
  /// one not planned or absent; `carried` is the object an absent one was missing from.
  case catalogueParam(
    provider: String, call: CallDescription, entry: CatalogueCall, path: String, rule: PropertyRule?,
    value: PropertyValue?, planned: [String], carried: Properties = [:])
  /// A journey rule (`after`, `once`, `duplicateWithin`, a funnel) with both records it names.
  case journey(JourneyEvidence)
  /// Personal data a provider received where the plan does not allow it: the finding (kind,
  /// provider, call, parameter path and length, never the value) beside the kinds the plan
  /// allows at that place (`pii` along the path, the call catalogue's, `privacy.allow`; empty
  /// when none).
  case personalData(PrivacyFinding, allowed: PIIKinds)
}

extension ExpectationComparison {
  /// Characters of a value shown in a row (values are untrusted; the JSON report has them whole).
  static let valueLimit = 200

  init(violation: PlanViolation, evidence: ViolationEvidence?) {
    let (title, rows) = Self.compare(violation, evidence)
    let heading: String?
    switch evidence {
    case nil: heading = nil
    case .providerRule?: heading = Self.providerRuleHeading
    case .personalData?: heading = Self.personalDataHeading
    default: heading = Self.planHeading
    }
    self.init(
      planFile: violation.planFile ?? "plan", planLine: violation.planLine, title: title, rows: rows,
      expectedHeading: heading)
  }

  /// The title and rows of `violation`'s comparison.
  private static func compare(_ violation: PlanViolation, _ evidence: ViolationEvidence?) -> (String, [Row]) {
    let title: String
    let rows: [Row]
    guard let evidence else {
      return (
        violation.rule.rawValue,
        [Row(field: violation.rule.rawValue, expected: "—", actual: violation.message, differs: true)]
      )
    }
    switch evidence {
    case .unplanned(let section, let name):
      title = "\(section.noun) \(name)"
      rows = [
        Row(
          field: "tag", expected: "a \(section.noun) the plan lists", actual: "\(section.noun) \(name)",
          differs: true)
      ]
    case .property(let name, let rule, let value, let planned, let carried):
      title = "property \(name)"
      if let rule {
        // Missing: the properties the plan does not list (each also `unexpected-property`, in
        // the same words), the most similar one suggested.
        let (extraRows, pairs) =
          value == nil
          ? extras(
            carried: carried, planned: Set(planned), missing: [name], prefix: "property",
            notPlanned:
              "not planned (plan lists \(planned.isEmpty ? "no property" : planned.joined(separator: ", ")))",
            annotate: false, differs: true) : ([], [:])
        rows =
          [
            Row(
              field: "property \(name)", expected: rule.constraintText,
              actual: value.map { show($0, key: name) } ?? absent(name, pairs), differs: breaks(rule, value))
          ] + extraRows
      } else {
        let actual = value.map { show($0, key: name) } ?? "absent"

        let list = planned.isEmpty ? "no property" : planned.joined(separator: ", ")
        rows = [
          Row(
            field: "property \(name)", expected: "not planned (plan lists \(list))", actual: actual,
            differs: true)
        ]
      }
    case .screen(let allowed, let actual):
      title = "screen"
      rows = [
        Row(
          field: "screen", expected: allowed.joined(separator: " or "), actual: actual ?? "no current screen",
          differs: true)
      ]
    case .call(let expected, let output):
      title = "\(output.provider) \(expected.isNone ? "no call" : expected.label)"
      rows = callRows(expected, output)
    case .providerRule(let rule, let output):
      title = "\(output.provider) rule \(rule.rule)"
      var ruleRows = [
        Row(field: "\(output.provider) rule", expected: rule.rule, actual: rule.message, differs: true)
      ]
      if let index = rule.callIndex, output.calls.indices.contains(index) {
        let call = output.calls[index]
        ruleRows.append(
          Row(
            field: "call", expected: "—", actual: call.name.map { "\(call.method) \($0)" } ?? call.method,
            differs: false))
      }
      rows = ruleRows
    case .journey(let journey):
      title = journey.rule
      rows = journey.rows
    case .personalData(let finding, let allowed):
      title = "\(finding.provider) \(finding.callLabel) param \(finding.path)"
      rows = [
        Row(field: "call", expected: "—", actual: clip(finding.callLabel), differs: false),
        Row(
          field: "param \(finding.path)", expected: allowed.planText, actual: finding.maskedDescription,
          differs: true),
      ]
    case .unplannedCall(let provider, let call, let catalogue):
      title = "\(provider) \(callLabel(call))"
      let known = catalogue.entries.prefix(8).map(\.label).joined(separator: ", ")
      let more = catalogue.entries.count > 8 ? ", …" : ""
      rows = [
        Row(
          field: "call", expected: "a call the \(provider) catalogue lists (\(known)\(more))",
          actual: clip(callLabel(call)), differs: true)
      ]
    case .catalogueParam(
      let provider, let call, let entry, let path, let rule, let value, let planned, let carried):
      title = "\(provider) \(callLabel(call)) param \(path)"
      let expected: String
      if let rule {
        expected = rule.constraintText
      } else {
        expected = "not planned (plan lists \(planned.isEmpty ? "none" : planned.joined(separator: ", ")))"
      }
      // An absent parameter: what its object carried that the entry does not plan, perhaps it
      // misspelled.
      var extraRows: [Row] = []
      var pairs: [String: String] = [:]
      if let rule, value == nil, !carried.isEmpty {
        let parent = path.hasSuffix("." + rule.name) ? String(path.dropLast(rule.name.count + 1)) : ""
        (extraRows, pairs) = extras(
          carried: carried, planned: Set(planned), missing: [rule.name], prefix: "param", differs: false)
        if !parent.isEmpty {
          extraRows = extraRows.map { row in
            var row = row
            row.field = "param \(parent)." + row.field.dropFirst("param ".count)
            return row
          }
        }
      }
      rows =
        [
          Row(field: "call", expected: entry.label, actual: clip(callLabel(call)), differs: false),
          Row(
            field: "param \(path)", expected: expected,
            actual: value.map { show($0, key: path) } ?? absent(rule?.name ?? "", pairs),
            differs: rule == nil || breaks(rule!, value)),
        ] + extraRows
    }
    return (title, rows)
  }

  /// The call row (the planned call beside the call received, by method and name), then one
  /// row per planned parameter beside the value that call carried. The call compared is the
  /// expectation's ``ExpectedCall/counterpart(in:)``: a renamed call's parameters are compared too,
  /// its call row marked.
  private static func callRows(_ expected: ExpectedCall, _ output: ProviderOutput) -> [Row] {
    let counterpart = expected.counterpart(in: output)
    let received: String
    if output.status == .failed {
      received = "failed" + (output.reason.map { " (\(clip($0)))" } ?? "")
    } else if output.status == .dropped || output.calls.isEmpty {
      received = "no call (\(output.status.rawValue))"
    } else if let counterpart {
      received = clip(callLabel(counterpart.call))
    } else {
      received = clip(output.calls.map { callLabel($0) }.joined(separator: ", "))
    }
    if expected.isNone {
      let gotNothing = output.status == .dropped || output.calls.isEmpty
      return [Row(field: "call", expected: "no call", actual: received, differs: !gotNothing)]
    }
    let matched = counterpart?.call
    var rows = [
      Row(field: "call", expected: expected.label, actual: received, differs: counterpart?.renamed != false)
    ]
    // A planned parameter missing: what the call carried instead (extra, perhaps misspelled).
    var extraRows: [Row] = []
    var pairs: [String: String] = [:]
    if let matched {
      let missing = expected.params.map(\.name).filter { matched.parameters[$0] == nil }
      if !missing.isEmpty {
        (extraRows, pairs) = extras(
          carried: matched.parameters, planned: Set(expected.params.map(\.name)), missing: missing,
          prefix: "param", differs: false)
      }
    }
    for param in expected.params {
      let value = matched?.parameters[param.name]
      let actual = matched == nil ? "—" : value.map { show($0, key: param.name) } ?? absent(param.name, pairs)
      let differs: Bool
      let wanted: String
      switch param.expectation {
      case .present:
        wanted = "present"
        differs = matched != nil && value == nil
      case .value(let planned):
        wanted = show(planned)
        differs = matched != nil && !(value.map { PropertyRule.same(planned, $0) } ?? false)
      case .constrained(let rule):
        wanted = rule.constraintText
        differs = matched != nil && (value.map { rule.problem(with: $0) != nil } ?? true)
      }
      rows.append(Row(field: "param \(param.name)", expected: wanted, actual: actual, differs: differs))
    }
    return rows + extraRows
  }

  /// Whether a present or absent `value` breaks `rule`.
  private static func breaks(_ rule: PropertyRule, _ value: PropertyValue?) -> Bool {
    guard let value, value != .null || !rule.nullIsAbsent else { return rule.required }
    return rule.problem(with: value) != nil
  }

  /// `"Swift by Sundell"`, `1830`: a value as the rows show it, clipped, its personal data masked
  /// as the detectors read it under `key` (``PropertyRule/quoted(_:key:)``).
  static func show(_ value: PropertyValue, key: String? = nil) -> String {
    clip(PropertyRule.quoted(value, key: key))
  }

  static func clip(_ text: String) -> String {
    text.count <= valueLimit ? text : String(text.prefix(valueLimit)) + "…"
  }
}

extension PropertyRule {
  /// `string, required, maxLength 20`: the rule's constraints in the plan's words (`any value`
  /// when it has none).
  public var constraintText: String {
    var parts: [String] = []
    if !types.isEmpty { parts.append(types.map(\.rawValue).joined(separator: " or ")) }
    if required { parts.append("required") }
    if let allowed { parts.append("one of " + allowed.map { Self.quoted($0) }.joined(separator: ", ")) }
    if let pattern { parts.append("pattern \(pattern.source)") }
    if let minimumValue { parts.append("minimum \(Self.format(minimumValue))") }
    if let maximumValue { parts.append("maximum \(Self.format(maximumValue))") }
    if let minLength { parts.append("minLength \(minLength)") }
    if let maxLength { parts.append("maxLength \(maxLength)") }
    if let constant { parts.append("const \(Self.quoted(constant))") }
    if let format { parts.append("format \(format.rawValue)") }
    if let properties {
      parts.append(
        "object of " + (properties.isEmpty ? "no key" : properties.map(\.name).joined(separator: ", ")))
    }
    if !additionalProperties { parts.append("no other key") }
    if let items { parts.append("items: " + items.constraintText) }
    if let keywords { parts.append(contentsOf: keywords.summary) }
    return parts.isEmpty ? "any value" : parts.joined(separator: ", ")
  }
}
