import AnalyticsHub
import Foundation

/// The demo as a data generator (`tagscope demo --headless`): the simulator as fast as its
/// observers take the dispatches, exactly `count` of them passed on.
///
/// The hub is flushed every ``flushInterval`` steps, so when an observer waits (an inspector with
/// `whenFull: .wait` behind a slow disk or a busy machine), the simulator waits with it instead of
/// queueing without bound or dropping.
public enum HeadlessRun {
  /// Simulator steps between two `flush()`es of the hub.
  public static let flushInterval = 256

  /// Runs the simulator on `hub` until `count` dispatches reached `observers`, advancing `clock`
  /// by the simulator's delays (or `1 / rate` a step); with `paced` and a `rate`, in real time
  /// (`rate` steps a second) rather than as fast as the observers go. With `tour`, the run opens
  /// with the simulator's quick tour, so its first records carry every deliberate bug (the
  /// mappings' and the journeys'; the tour's timing needs the simulator's delays: no `rate`).
  public static func run(
    hub: AnalyticsHub<PodcastTaxonomy>, clock: ManualClock, seed: UInt64, count: Int, rate: Double?,
    observers: [any HubObserver], paced: Bool = false, tour: Bool = false
  ) {
    let gate = DispatchGate(limit: count, observers: observers)
    hub.addObserver(gate)
    let simulator = PodcastSimulator(hub: hub, seed: seed, tour: tour && rate == nil)
    let start = DispatchTime.now().uptimeNanoseconds
    var steps = 0
    while !gate.isFull && steps <= count * 10 {
      let delay = simulator.step()
      clock.advance(by: rate.map { 1 / $0 } ?? delay)
      steps += 1
      if steps % flushInterval == 0 { hub.flush() }
      if paced, let rate, steps % 16 == 0 {
        let due = Double(steps) / rate * 1e9
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start)
        if due > elapsed { usleep(useconds_t(min(1e6, (due - elapsed) / 1000))) }
      }
    }
    hub.flush()
    hub.removeObserver(gate)
  }
}
