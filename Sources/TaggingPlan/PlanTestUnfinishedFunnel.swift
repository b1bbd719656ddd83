/// A funnel the tags of a ``PlanTestRun`` started and did not finish: a device's session reached
/// some of its steps, and the run ended before the next. Not a violation (a unit test often checks
/// one step); a test that plays a whole journey asks for them to fail it
/// (`requireNoViolations(requireFinishedFunnels: true)`).
public struct PlanTestUnfinishedFunnel: Sendable, Hashable, CustomStringConvertible {
  /// The funnel's name in the plan.
  public var funnel: String
  /// The steps reached.
  public var reached: Int
  /// The funnel's step count.
  public var steps: Int
  /// The next step's tag, not reached.
  public var next: String
  /// The last step's record (with its device and session).
  public var last: JourneyRecord

  /// A funnel left at step `reached + 1` of `steps`.
  public init(funnel: String, reached: Int, steps: Int, next: String, last: JourneyRecord) {
    self.funnel = funnel
    self.reached = reached
    self.steps = steps
    self.next = next
    self.last = last
  }

  /// The validator's note on an unfinished funnel.
  init(_ unfinished: UnfinishedFunnel) {
    self.init(
      funnel: unfinished.funnel, reached: unfinished.reached, steps: unfinished.steps, next: unfinished.next,
      last: unfinished.last)
  }

  /// `funnel checkout unfinished: step 2 of 3 (pay) not reached after #12 tap at 10:00:04.210Z
  /// (session s-1)`, with the device when the record has one.
  public var description: String {
    let device = last.source.map { " of device \($0)" } ?? ""
    return
      "funnel \(funnel) unfinished: step \(reached + 1) of \(steps) (\(next)) not reached after \(last.label) "
      + "(session \(last.session ?? "(none)")\(device))"
  }
}
