import AnalyticsHub
import TagscopeRecording

extension PlanValidator {
  /// Appends a `personal-data` violation for each piece of personal data (``PrivacyScan``) a
  /// provider received in `record` that the plan does not allow there: a property of the
  /// record's entry (or a parameter of its planned call to that provider) with `pii` naming the
  /// kind, or a parameter the plan gives an exact value, allows it. The value is never shown:
  /// the message names the record, provider, call, parameter path, kind and length.
  static func appendPrivacyFindings(of record: Record, plan: Plan, to violations: inout [PlanViolation]) {
    let findings = PrivacyScan.findings(in: record)
    guard !findings.isEmpty else { return }
    let entry = record.kind.tagKind.flatMap(PlanSection.init(kind:)).flatMap {
      plan.entry(section: $0, name: record.name)
    }
    for finding in findings where !(entry.map { allows($0, finding) } ?? false) {
      violations.append(
        PlanViolation(
          seq: record.seq, severity: entry?.severity ?? .error, rule: .personalData, tag: record.name,
          provider: finding.provider,
          message:
            "\(place(record)): \(finding.provider) \(finding.callLabel) parameter \(finding.path) carries "
            + "\(finding.kind.phrase) (\(finding.place), value masked, \(finding.length) characters); "
            + "mark the property pii: [\(finding.kind.rawValue)] where it is intended",
          planFile: plan.file, evidence: nil))
    }
  }

  /// Whether `entry` allows `finding` (see ``appendPrivacyFindings(of:plan:to:)``).
  static func allows(_ entry: PlanEntry, _ finding: PrivacyFinding) -> Bool {
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
    if rule.allowedPII.contains(kind) { return true }
    var inner = rule
    while let items = inner.items {
      if items.allowedPII.contains(kind) { return true }
      inner = items
    }
    guard let properties = inner.properties else { return false }
    return allows(properties, components.dropFirst(), kind)
  }
}
