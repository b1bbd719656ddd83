import AnalyticsHub
import TagscopeRecording

extension PlanValidator {
  /// Appends a `personal-data` violation for each piece of personal data (``PrivacyScan``) a
  /// provider received in `record` that the plan does not allow there: a property of the
  /// record's entry (or a parameter of its planned call to that provider) with `pii` naming the
  /// kind, or a parameter the plan gives an exact value, allows it. The value is never shown:
  /// the message names the record, provider, call, parameter path, kind and length, and the
  /// evidence (``ViolationEvidence/personalData(_:allowed:)``) keeps the finding beside the kinds
  /// the plan allows there.
  /// The plan's `privacy` turns the check off, or allows kinds everywhere (every detector still
  /// runs, so a value is named by the same kind whatever the plan allows). `memo` keeps what each
  /// text scanned held, for the next records.
  static func appendPrivacyFindings(
    of record: Record, plan: Plan, memo: inout PrivacyMemo, to violations: inout [PlanViolation]
  ) {
    let kinds = plan.privacy.checkedKinds
    guard !kinds.isEmpty else { return }
    let findings = PrivacyScan.findings(in: record, memo: &memo).filter { kinds.contains(PIIKinds($0.kind)) }
    guard !findings.isEmpty else { return }
    let entryIndex = record.kind.tagKind.flatMap(PlanSection.init(kind:)).flatMap {
      plan.entryIndex(section: $0, name: record.name)
    }
    let entry = entryIndex.map { plan.entries[$0] }
    for finding in findings
    where !(entry.map { allows($0, finding) } ?? false) && !catalogueAllows(record, finding, plan: plan) {
      // Failing the item the value reached like any other finding of the record: its provider's
      // on a planned tag, else the tag's (none for an unplanned tag).
      let item = entryIndex.map { index in
        plan.providerItems[index].first { $0.provider == finding.provider }?.item(
          screen: record.context.screen)
          ?? plan.tagItems[index]
      }
      // The plan line where `pii` would allow it: the entry's property of that name, else the
      // entry (none for an unplanned tag).
      let line = entry.map { entry in
        PrivacyPath.components(finding.path).first.flatMap { name in
          entry.properties?.first { $0.name == name }?.location.line
        } ?? entry.location.line
      }
      violations.append(
        PlanViolation(
          seq: record.seq, severity: entry?.severity ?? .error, rule: .personalData, tag: record.name,
          provider: finding.provider,
          message:
            "\(place(record)): \(finding.provider) \(finding.callLabel) parameter \(finding.path) carries "
            + "\(finding.kind.phrase) (\(finding.place), value masked, \(finding.length) characters); "
            + "mark the property pii: [\(finding.kind.rawValue)] where it is intended",
          planLine: line, coverageItem: item, planFile: plan.file,
          evidence: .personalData(
            finding, allowed: allowedKinds(at: finding, of: record, entry: entry, plan: plan))))
    }
  }

  /// The kinds the plan allows at `finding`'s place in `record` (of plan entry `entry`): those
  /// allowed everywhere (`privacy.allow`) and those the entry's or the call catalogue's rules
  /// along the finding's path allow (``allows(_:_:)``, ``catalogueAllows(_:_:plan:)``).
  static func allowedKinds(at finding: PrivacyFinding, of record: Record, entry: PlanEntry?, plan: Plan)
    -> PIIKinds
  {
    var kinds = plan.privacy.allowed
    for kind in PIIKind.allCases where !kinds.contains(kind) {
      var other = finding
      other.kind = kind
      if entry.map({ allows($0, other) }) ?? false || catalogueAllows(record, other, plan: plan) {
        kinds.insert(PIIKinds(kind))
      }
    }
    return kinds
  }

  /// Whether the entry of the finding provider's call catalogue that the call matches allows
  /// `finding`: its parameters (under the catalogue's `propertiesAt`) or its message rules, along
  /// the finding's path.
  static func catalogueAllows(_ record: Record, _ finding: PrivacyFinding, plan: Plan) -> Bool {
    guard finding.output < record.outputs.count else { return false }
    let output = record.outputs[finding.output]
    let call: CallDescription
    if finding.inBatch {
      // The batch's fields are checked as the parameters of a call of the batch method.
      guard case .object(let batch)? = output.extra[CallCatalogue.batchField] else { return false }
      call = CallDescription(method: CallCatalogue.batchMethod, name: nil, parameters: batch)
    } else {
      guard finding.call < output.calls.count else { return false }
      call = output.calls[finding.call]
    }
    let components = PrivacyPath.components(finding.path)[...]
    for catalogue in plan.catalogues where catalogue.provider == finding.provider {
      guard let index = catalogue.entryIndex(for: call) else { continue }
      let entry = catalogue.entries[index]
      if PrivacyPath.allows(entry.messageParams, components, finding.kind) { return true }
      // An SDK's message holds the parameters under `propertiesAt`; an in-app call's parameters
      // are the call's own.
      let at = (entry.propertiesAt ?? catalogue.propertiesAt)?.keys ?? []
      let parameters = components.starts(with: at) ? components.dropFirst(at.count) : components
      if PrivacyPath.allows(entry.params, parameters, finding.kind) { return true }
    }
    return false
  }

  /// Whether `entry` allows `finding` (see ``appendPrivacyFindings(of:plan:memo:to:)``).
  /// A value among the batch's fields is the batch's, not the tag's: only the call catalogue's
  /// batch entry allows it.
  static func allows(_ entry: PlanEntry, _ finding: PrivacyFinding) -> Bool {
    guard !finding.inBatch else { return false }
    let components = PrivacyPath.components(finding.path)
    guard let first = components.first else { return false }
    if let rules = entry.properties, PrivacyPath.allows(rules, components[...], finding.kind) { return true }
    for provider in entry.providers where provider.provider == finding.provider {
      for call in provider.calls {
        for param in call.params where param.name == first {
          switch param.expectation {
          case .value: return true
          case .constrained(let rule):
            if PrivacyPath.allows([rule], components[...], finding.kind, named: first) { return true }
          case .present: break
          }
        }
      }
    }
    return false
  }
}

extension PropertyRule {
  /// Whether this rule allows `kind` itself: `pii` names it, or the rule's `format` is that kind
  /// (`format: email` is an email the plan intends; `ipv4`/`ipv6` an IP address).
  func allows(_ kind: PIIKind) -> Bool {
    if allowedPII.contains(kind) { return true }
    switch (format, kind) {
    case (.email?, .email), (.idnEmail?, .email), (.ipv4?, .ip), (.ipv6?, .ip): return true
    default: return false
    }
  }
}

/// A finding's parameter path against a plan's property rules.
enum PrivacyPath {
  /// `user.contacts[1].email` → `user`, `contacts`, `email` (array positions dropped: `items`
  /// rules apply to every element).
  static func components(_ path: String) -> [String] {
    path.split(separator: ".").map { part in
      String(part.prefix { $0 != "[" })
    }
  }

  /// Whether a rule along `components` (the property, then its `properties` or `items`, level by
  /// level) allows `kind`: `pii` on an object covers what it holds.
  static func allows(
    _ rules: [PropertyRule], _ components: ArraySlice<String>, _ kind: PIIKind, named: String? = nil
  )
    -> Bool
  {
    guard let name = components.first else { return false }
    guard let rule = rules.first(where: { $0.name == (named ?? name) }) else { return false }
    for branch in branches(of: rule) {
      if branch.allows(kind) { return true }
      var inner = branch
      while let items = inner.items {
        if items.allows(kind) { return true }
        inner = items
      }
      for holder in branches(of: inner) {
        if let properties = holder.properties, allows(properties, components.dropFirst(), kind) {
          return true
        }
      }
    }
    return false
  }

  /// `rule` and the schemas the value may meet in its stead or besides (`then`, `else`, `allOf`,
  /// `anyOf`, `oneOf`, theirs in turn, up to ``branchDepth`` levels): a `format: email` or a `pii`
  /// in an `if`/`then` branch allows what it names like one on the rule itself.
  static func branches(of rule: PropertyRule, depth: Int = 0) -> [PropertyRule] {
    guard depth < branchDepth, let keywords = rule.keywords else { return [rule] }
    var found = [rule]
    let inner =
      [keywords.thenSchema, keywords.elseSchema].compactMap { $0 } + keywords.allOf + keywords.anyOf
      + keywords.oneOf
    for schema in inner { found += branches(of: schema, depth: depth + 1) }
    return found
  }

  /// How deep ``branches(of:depth:)`` looks.
  static let branchDepth = 4
}
