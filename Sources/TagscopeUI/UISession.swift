/// A ``State`` with its effects run against a timeline: what the event loop drives, and what tests
/// and benchmarks drive the same way. Reading the timeline happens here, never in ``update(_:_:)``
/// or ``render(_:size:)``.
@dynamicMemberLookup
public struct UISession: Sendable {
  /// The state now.
  public private(set) var state: State
  /// Runs the effects.
  public let runner: EffectRunner
  /// Most effect rounds one message may cause (a guard against a load that never satisfies).
  static let maximumRounds = 16

  /// A session over `source`, with the records and header facts it holds now.
  public init(source: any TimelineSource, mode: Mode, size: Size, now: Double = 0) {
    state = State(mode: mode, size: size, now: now)
    runner = EffectRunner(source: source)
    refresh()
  }

  /// Reads a field of the state.
  public subscript<Value>(dynamicMember keyPath: KeyPath<State, Value>) -> Value { state[keyPath: keyPath] }

  /// Applies `msg`, then runs the effects it asked for and applies what they return, until none
  /// are left.
  public mutating func apply(_ msg: Msg) {
    var pending = [msg]
    var rounds = 0
    while !pending.isEmpty && rounds < Self.maximumRounds {
      rounds += 1
      var next: [Msg] = []
      for message in pending {
        for effect in state.apply(message) { next += runner.run(effect) }
      }
      pending = next
    }
  }

  /// Tells the state what changed in the timeline: new records, new header facts. Returns whether
  /// anything did.
  @discardableResult
  public mutating func refresh() -> Bool {
    var changed = false
    let info = runner.source.info
    if info != state.info {
      apply(.info(info))
      changed = true
    }
    let count = runner.source.count
    if count != state.known {
      apply(.recordsArrived(count: count))
      changed = true
    }
    return changed
  }

  /// Shows `text` in the footer until the next key.
  public mutating func show(notice text: String) { state.show(notice: text) }
}
