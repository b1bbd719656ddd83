import AnalyticsHub
import AnalyticsHubTesting

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
  /// by the simulator's delays (or `1 / rate` a step).
  public static func run(
    hub: AnalyticsHub<PodcastTaxonomy>, clock: ManualClock, seed: UInt64, count: Int, rate: Double?,
    observers: [any HubObserver]
  ) {
    let gate = DispatchGate(limit: count, observers: observers)
    hub.addObserver(gate)
    let simulator = PodcastSimulator(hub: hub, seed: seed)
    var steps = 0
    while !gate.isFull && steps <= count * 10 {
      let delay = simulator.step()
      clock.advance(by: rate.map { 1 / $0 } ?? delay)
      steps += 1
      if steps % flushInterval == 0 { hub.flush() }
    }
    hub.flush()
    hub.removeObserver(gate)
  }
}
