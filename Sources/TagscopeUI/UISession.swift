/// A ``State`` with its effects run at once, on the caller's thread, against a timeline: what tests
/// and benchmarks drive (the event loop runs the same effects on an ``EffectWorker`` instead).
/// Reading the timeline happens in the effects, never in ``update(_:_:)`` or ``render(_:size:)``.
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

  /// Tells the state what changed in the timeline: new records, new header facts (the event
  /// loop's ``Effect/loadInfo``). Returns whether anything did.
  @discardableResult
  public mutating func refresh() -> Bool {
    let before = (state.info, state.known)
    for message in runner.run(.loadInfo) { apply(message) }
    return state.info != before.0 || state.known != before.1
  }

  /// Shows `text` in the footer until the next key.
  public mutating func show(notice text: String) { state.show(notice: text) }
}
