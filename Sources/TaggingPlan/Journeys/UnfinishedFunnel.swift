/// A funnel a device's session had started and not finished when its recording ended: not a
/// violation (the recording stopped, not the session), but said, so that it is never silent.
package struct UnfinishedFunnel: Sendable, Hashable, CustomStringConvertible {
  /// The funnel's name in the plan.
  package var funnel: String
  /// Steps reached, and the funnel's step count.
  package var reached: Int
  package var steps: Int
  /// The next step's tag.
  package var next: String
  /// The last step's record (with its device and session).
  package var last: JourneyRecord

  /// `funnel checkout unfinished at the end of the recording: step 2 of 3 (pay) not reached after
  /// #12 tap at 10:00:04.210Z (session s-1 of device d)`.
  package var description: String {
    let device = last.source.map { " of device \($0)" } ?? ""
    return
      "funnel \(funnel) unfinished at the end of the recording: step \(reached + 1) of \(steps) (\(next)) not reached after \(last.label) (session \(last.session ?? "(none)")\(device))"
  }
}

extension JourneyState {
  /// The funnels each device's current session has started and not finished, in the order of
  /// their last step's `seq`.
  package func unfinished(plan: Plan) -> [UnfinishedFunnel] {
    var found: [UnfinishedFunnel] = []
    for (_, device) in devices.all {
      for (funnel, progress) in device.funnels {
        let steps = plan.funnels[funnel].steps
        found.append(
          UnfinishedFunnel(
            funnel: plan.funnels[funnel].name, reached: progress.reached, steps: steps.count,
            next: steps[progress.reached].tag, last: progress.last))
      }
    }
    return found.sorted { ($0.last.seq, $0.funnel) < ($1.last.seq, $1.funnel) }
  }
}
