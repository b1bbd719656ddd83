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
