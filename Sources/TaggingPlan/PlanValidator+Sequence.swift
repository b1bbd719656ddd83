import AnalyticsHub
import TagscopeRecording

extension Plan {
  /// Whether the plan has rules that compare a record with earlier ones (journeys, consent), so
  /// that an identical record may get other findings: a line cache keeps the record itself to run
  /// them.
  package var hasSequenceRules: Bool { journeys.isActive || consent != nil }
}

extension PlanValidator {
  /// The funnels started and not finished so far, per device and session (at the end of a
  /// recording: those it ends in the middle of).
  package var unfinishedFunnels: [UnfinishedFunnel] { journeyState.unfinished(plan: plan) }

  /// The checks of `record` that depend on earlier records of its device (`source`) and session:
  /// the journey rules (``JourneyState``) and the consent check (``ConsentTracker``: the device's
  /// consent decisions so far). Their findings go to `violations`, what they did to
  /// coverage to `marks` (joined with the record's own marks from `first` on).
  static func checkSequence(
    _ record: Record, plan: Plan, marks: inout [CoverageMark], from first: Int, state: inout ValidationState,
    into violations: inout [PlanViolation]
  ) {
    if plan.journeys.isActive {
      state.journeys.check(record, plan: plan, marks: &marks, from: first, into: &violations)
    }
    if plan.consent != nil {
      state.consent.check(record, plan: plan, marks: &marks, from: first, into: &violations)
    }
  }
}

extension Record {
  /// The record as the checks that compare it with later ones read it (``Plan/hasSequenceRules``:
  /// journeys, consent): its kind, name, time, properties, source, screen, session (id, state and
  /// user) and, of each provider output, its provider, status and first call's method and name.
  /// What a line cache keeps to run them again: the rest (history, call parameters, later calls,
  /// the hub's violations and issues, unknown fields) is left out, so more records fit.
  package var sequenceFields: Record {
    var kept = self
    kept.eventType = nil
    kept.issues = []
    kept.extra = [:]
    if kept.raw != nil { kept.raw = "" }
    kept.context = RecordContext(
      screen: context.screen, history: [],
      session: context.session.map {
        RecordSession(id: $0.id, state: $0.state, user: $0.user, properties: [:])
      })
    for index in kept.outputs.indices {
      let calls = kept.outputs[index].calls
      kept.outputs[index] = ProviderOutput(
        provider: kept.outputs[index].provider, status: kept.outputs[index].status,
        calls: calls.first.map { [CallDescription(method: $0.method, name: $0.name)] } ?? [])
    }
    return kept
  }

  /// About how many bytes ``sequenceFields`` holds: what a line cache counts for it.
  package var sequenceBytes: Int {
    var bytes = 256 + name.utf8.count + Self.bytes(of: properties)
    if let session = context.session {
      bytes += 64 + session.id.utf8.count + session.state.utf8.count + (session.user?.utf8.count ?? 0)
    }
    bytes += context.screen?.utf8.count ?? 0
    for output in outputs {
      bytes += 128 + output.provider.utf8.count
      if let call = output.calls.first { bytes += 96 + call.method.utf8.count + (call.name?.utf8.count ?? 0) }
    }
    return bytes
  }

  /// About how many bytes `properties` hold in memory.
  private static func bytes(of properties: Properties) -> Int {
    properties.reduce(0) { $0 + 48 + $1.key.utf8.count + bytes(of: $1.value) }
  }

  private static func bytes(of value: PropertyValue) -> Int {
    switch value {
    case .string(let text): return 16 + text.utf8.count
    case .array(let values): return values.reduce(32) { $0 + 16 + bytes(of: $1) }
    case .object(let properties): return 32 + bytes(of: properties)
    default: return 16
    }
  }
}
