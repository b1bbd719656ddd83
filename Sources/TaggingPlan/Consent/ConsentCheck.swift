import AnalyticsHub
import TagscopeRecording

extension ConsentTracker {
  /// Checks `record` against the consent of its device, appending its findings to `violations`
  /// and what they did to coverage to `marks` (joined with the record's own marks from `first`).
  ///
  /// An in-app record (not from an SDK endpoint) updates its device: a `consent` record applies
  /// its decision (and is itself exempt: the hub tells every provider of it); any other is checked.
  /// A wire record is checked against the in-app device it joins (``join(user:)``) with the
  /// decisions its own source sent on the wire over it (a wire `consent` record applies to its
  /// source: `applyWire`), or against those alone, or its source is reported once
  /// as not checked. A provider output counts as a call when it was `sent`, or
  /// carries calls and was not `blocked`.
  mutating func check(
    _ record: Record, plan: Plan, marks: inout [CoverageMark], from first: Int,
    into violations: inout [PlanViolation]
  ) {
    guard let consent = plan.consent else { return }
    work += 1
    guard !record.isFromSDK else {
      var findings = Findings(plan: plan, record: record, at: place)
      if record.kind == .consent {
        applyWire(record, consent: consent, &findings)
      } else {
        checkWire(record, consent: consent, &findings)
      }
      findings.flush(marks: &marks, from: first, into: &violations)
      return
    }
    let source = record.source ?? ""
    guard record.kind != .consent else {
      var findings: Findings? = Findings(plan: plan, record: record, at: place)
      update(source, with: record, consent: consent, &findings)
      findings?.flush(marks: &marks, from: first, into: &violations)
      return
    }
    var none: Findings?
    update(source, with: record, consent: consent, &none)
    // Most records: each call's provider has a category with consent, and no findings are built
    // (the device read in place, not copied).
    guard let quiet = devices.withLatest(source, { Self.isQuiet(record, consent: consent, device: &$0) })
    else {
      return
    }
    if quiet {
      work += record.outputs.count
      return
    }
    guard let device = devices[source] else { return }
    var findings = Findings(plan: plan, record: record, at: place)
    checkOutputs(record, consent: consent, device: device, deviceName: nil, &findings)
    findings.flush(marks: &marks, from: first, into: &violations)
  }

  /// Makes in-app device `source` the latest and notes its user from `record`; a `consent`
  /// record's decision is applied to it (its findings, if any, to `findings`).
  private mutating func update(
    _ source: String, with record: Record, consent: PlanConsent, _ findings: inout Findings?
  ) {
    select(source, defaultGranted: consent.defaultGranted)
    var users: (previous: String?, now: String?)?
    devices.updateLatest { device in
      let previousUser = device.user
      if let session = record.context.session { device.user = session.user }
      if device.user != previousUser { users = (previousUser, device.user) }
      if record.kind == .consent, findings != nil {
        Self.apply(record, consent: consent, to: &device, &findings!)
      }
    }
    if let users { moveUser(of: source, from: users.previous, to: users.now) }
  }

  /// Whether an in-app record of `digest` passes the consent check on `source`'s device as
  /// ``check(_:plan:marks:from:into:)`` does, with no finding: the latest device, consent to each
  /// provider the record calls. Nothing is changed: then ``pass(_:source:session:consent:)``
  /// counts it.
  mutating func passes(_ digest: SequenceDigest, source: String, consent: PlanConsent) -> Bool {
    guard !digest.needsRecord else { return false }
    return devices.withLatest(source) { device in
      if let bits = digest.callBits { return device.grantsEach(of: bits, consent: consent) }
      for call in digest.calls where !device.grants(call, consent: consent) { return false }
      return true
    } == true
  }

  /// Counts the record of `digest` numbered `seq`, made at `time` in `session`, that
  /// ``passes(_:source:consent:)``: its device used and given the session's user (as
  /// ``check(_:plan:marks:from:into:)`` does), its outputs looked at, and a `consent` record's
  /// decision (``SequenceDigest/decision``) applied, naming the record (made only then).
  mutating func pass(
    _ digest: SequenceDigest, seq: UInt64, time: Int64, source: String, session: LineSession,
    consent: PlanConsent
  ) {
    work += 1 + digest.outputs
    select(source, defaultGranted: consent.defaultGranted)
    if let decision = digest.decision {
      let record = JourneyRecord(seq: seq, name: digest.name, time: time, session: session.id, place: place)
      devices.withLatest(source) { Self.apply(decision, by: record, to: &$0) }
    }
    guard digest.hasSession else { return }
    var previousUser: String?
    let moved =
      devices.withLatest(source) { device in
        guard device.user != session.user else { return false }
        previousUser = device.user
        device.user = session.user
        return true
      } == true
    if moved { moveUser(of: source, from: previousUser, to: session.user) }
  }

  /// Whether each call of `record` is to a provider with a category and consent on `device`: then
  /// ``checkOutputs(_:consent:device:deviceName:reportUncategorized:_:)`` would find nothing.
  private static func isQuiet(_ record: Record, consent: PlanConsent, device: inout Device) -> Bool {
    for index in record.outputs.indices {
      let status = record.outputs[index].status
      guard status == .sent || (status != .blocked && !record.outputs[index].calls.isEmpty) else { continue }
      guard let resolved = consent.resolve(record.outputs[index].provider),
        device.grants(resolved, consent: consent)
      else { return false }
    }
    return true
  }

  /// A `consent` record's decision, kept when the plan names its category or provider; or the hub's
  /// default (``ConsentDefault``, recorded at attach), which applies over the plan's.
  static func apply(
    _ record: Record, consent: PlanConsent, to device: inout Device, _ findings: inout Findings
  ) {
    let decision = ConsentDecision(properties: record.properties, consent: consent)
    guard decision != .unknown else {
      findings.unchecked(
        "consent record #\(record.seq) has no valid scope (category:NAME or provider:ID) and granted "
          + "(true or false): its decision is not known, later calls are checked without it")
      return
    }
    apply(decision, by: findings.this, to: &device)
  }

  /// Applies `decision`, made by record `this`, to `device`: the hub's default, or a decision
  /// kept (a withdrawal with its record).
  static func apply(_ decision: ConsentDecision, by this: JourneyRecord, to device: inout Device) {
    switch decision {
    case .hubDefault(let granted):
      device.state.defaultGranted = granted
      device.defaultRecord = this
    case .change(let change):
      device.state.apply(change)
      device.decisions[change.scope] = change.granted ? nil : this
    case .unconcerned, .unknown: break
    }
  }

  /// A wire record's calls, against the consent of the in-app device it joins.
  private mutating func checkWire(_ record: Record, consent: PlanConsent, _ findings: inout Findings) {
    let source = record.source ?? ""
    var categorized = false
    for output in record.outputs where Self.isCall(output) {
      if consent.category(of: output.provider) != nil {
        categorized = true
      } else if Self.firstReport(output.provider, in: &uncategorized) {
        findings.uncategorized(output.provider)
      }
    }
    guard categorized else { return }
    let own = wireDevices[source]
    switch join(user: record.context.session?.user) {
    case .success(let key):
      guard var device = devices[key] else { return }
      if let own { device.overlay(own) }
      checkOutputs(
        record, consent: consent, device: device, deviceName: key, reportUncategorized: false, &findings)
    case .failure(let why):
      if let own {
        checkOutputs(
          record, consent: consent, device: own, deviceName: nil, reportUncategorized: false, &findings)
      } else if Self.firstReport(source, in: &uncheckedSources) {
        findings.unchecked(
          "consent not checked for \(source): \(why.text); its calls to providers with a consent category are not checked"
        )
      }
    }
  }

  /// Each call of a provider without consent on `device` is `consent-withdrawn`.
  private mutating func checkOutputs(
    _ record: Record, consent: PlanConsent, device: Device, deviceName: String?,
    reportUncategorized: Bool = true,
    _ findings: inout Findings
  ) {
    // By index: a copy of each output (its calls, parameters) would cost more than the check.
    for index in record.outputs.indices {
      work += 1
      guard Self.isCall(record.outputs[index]) else { continue }
      let name = record.outputs[index].provider
      guard let resolved = consent.resolve(name) else {
        if reportUncategorized, Self.firstReport(name, in: &uncategorized) {
          findings.uncategorized(name)
        }
        continue
      }
      let (category, provider) = (resolved.category, resolved.provider)
      guard !device.state.isGranted(provider: provider, category: category) else { continue }
      let scope: ConsentScope =
        device.state.providers[provider] == false ? .provider(provider) : .category(category)
      findings.withdrawn(
        record.outputs[index], scope: scope, by: device.decisions[scope], default: device.defaultRecord,
        consent: consent, category: category, device: deviceName)
    }
  }

  /// Whether an output is a call the provider received: `sent`, or calls not `blocked`.
  static func isCall(_ output: ProviderOutput) -> Bool {
    output.status == .sent || (!output.calls.isEmpty && output.status != .blocked)
  }
}
