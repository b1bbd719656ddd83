import AnalyticsHub
import TagscopeRecording

extension ConsentTracker {
  /// The consent findings of one record, and what they do to coverage.
  struct Findings {
    let plan: Plan
    let record: Record
    /// The record, as a finding names it.
    let this: JourneyRecord
    var violations: [PlanViolation] = []
    var marks: [CoverageMark] = []

    init(plan: Plan, record: Record, at place: RecordLine?) {
      self.plan = plan
      self.record = record
      this = JourneyRecord(record, at: place)
    }

    /// A call to `output.provider` while `scope` has no consent: withdrawn by `withdrawal`, or
    /// never given (the hub's default `defaultRecord` recorded, else the plan's `default: denied`).
    mutating func withdrawn(
      _ output: ProviderOutput, scope: ConsentScope, by withdrawal: JourneyRecord?,
      default defaultRecord: JourneyRecord?, consent: PlanConsent, category: ConsentCategory, device: String?
    ) {
      let scopeText: String
      switch scope {
      case .category(let category): scopeText = category.rawValue
      case .provider(let id): scopeText = "provider \(id.rawValue)"
      }
      let call =
        output.calls.first.map { call in
          " " + ([call.method] + (call.name.map { [$0] } ?? [])).joined(separator: " ")
        } ?? ""
      let got = "\(output.provider) got\(call)" + (device == nil ? "" : " on the wire")
      // A wire source's own withdrawal (Edge's set-consent) is said to be on the wire, not on the
      // in-app device the source joins.
      let ownWire = device != nil && withdrawal != nil && withdrawal?.source == record.source
      let on =
        ownWire
        ? " on the wire"
        : device.map { $0.isEmpty ? " on the in-app device" : " on in-app device \($0)" } ?? ""
      let why =
        withdrawal.map { "after consent for \(scopeText) was withdrawn\(on) by \($0.label)" }
        ?? "while \(scopeText) has no consent\(on) ("
        + (defaultRecord.map { "the hub's default: denied, recorded by \($0.label)" }
          ?? "the plan's default: denied")
        + ", and no grant since)"
      let location = consent.categories.first { $0.category == category }?.location ?? consent.location
      let item = coverageItem(output.provider)
      violations.append(
        PlanViolation(
          seq: record.seq, severity: .error, rule: .consentWithdrawn, tag: record.name,
          provider: output.provider,
          message: "\(PlanValidator.place(record)): \(got) \(why) (plan line \(location.line))",
          planLine: location.line, coverageItem: item, planFile: plan.file,
          evidence: .journey(
            JourneyEvidence(
              rule: "consent: \(scopeText)", expected: "no \(output.provider) call without consent",
              actual: got, record: this,
              otherRole: withdrawal == nil && defaultRecord != nil ? "denied by default" : "withdrawn by",
              other: withdrawal ?? defaultRecord))))
      if let item { marks.append(.seen(item, RuleMask([.consentWithdrawn]))) }
    }

    /// A provider the plan's consent gives no category: its calls are not checked.
    mutating func uncategorized(_ provider: String) {
      unchecked(
        "\(provider) has no consent category in the plan; its calls are not checked", provider: provider)
    }

    /// Something the consent check could not check, said once.
    mutating func unchecked(_ text: String, provider: String? = nil) {
      violations.append(
        PlanViolation(
          seq: record.seq, severity: .warning, rule: .consentUnchecked, tag: record.name, provider: provider,
          message: "\(PlanValidator.place(record)): \(text)", planLine: plan.consent?.location.line,
          planFile: plan.file, evidence: nil))
    }

    /// The coverage item a call of `provider` in this record is checked on: the provider's for a
    /// planned tag, else the tag's; `nil` for an unplanned one.
    private func coverageItem(_ provider: String) -> Int? {
      guard let kind = record.kind.tagKind, let section = PlanSection(kind: kind),
        let entry = plan.entryIndex(section: section, name: record.name)
      else { return nil }
      return plan.providerItems[entry].first { $0.provider == provider }?.item(screen: record.context.screen)
        ?? plan.tagItems[entry]
    }

    /// Appends the findings, each coverage rule joined with the record's own mark of its item.
    func flush(marks all: inout [CoverageMark], from first: Int, into found: inout [PlanViolation]) {
      found.append(contentsOf: violations)
      for mark in marks {
        if case .seen(let item, let rules) = mark,
          let index = all[first...].lastIndex(where: {
            if case .seen(item, _) = $0 { return true } else { return false }
          }),
          case .seen(_, var joined) = all[index]
        {
          joined.formUnion(rules)
          all[index] = .seen(item, joined)
        } else {
          all.append(mark)
        }
      }
    }
  }
}
