/// Runs a ``PatternProgram`` over a text as a DFA built lazily: each state is the set of program
/// threads alive at a position (with the kind of scalar before it, for assertions), made the first
/// time it is reached and then followed by table lookup, one per scalar. The tables have a budget;
/// when they fill they are cleared and rebuilt, and when that happens faster than the text moves
/// (a pattern whose DFA is exponential) the rest of the text is run thread by thread instead, all
/// threads at once as a bit set (``BitStepper``): each scalar then costs a few word operations per
/// 64 instructions of the program, whose size the compiler caps.
///
/// Memory: the DFA's tables take at most ``budget`` cells (about ``budget`` × 8 bytes, 2 MiB) and
/// the stepper's at most ``BitStepper/tableLimit`` bytes, both also within what the `meter` (shared
/// by the cached patterns) has left: a pattern without room runs thread by thread.
///
/// Not thread safe: ``LinearPattern`` keeps one per pattern behind a lock and makes a private one
/// when that one is busy.
final class PatternAutomaton {
  /// Table cells (transitions, state keys) kept at most.
  static let budget = 1 << 18

  private let program: PatternProgram
  private let columns: Int
  private let threadWords: Int
  private let runKinds: [PositionKind]

  private var numbers: [StateKey: Int32] = [:]
  private var keys: [StateKey] = []
  /// `columns` cells per state: the next state, `unknown` or `matched`.
  private var transitions: [Int32] = []
  /// Per state: whether the text ending here matches (`nil`: not asked yet).
  private var ends: [Bool?] = []
  private var cells = 0

  private var stepper: BitStepper
  private let meter: PatternTableMeter?
  /// Bytes of DFA tables taken from ``meter`` (8 per cell).
  private var meteredCells = 0

  private static let unknown: Int32 = -1
  private static let matched: Int32 = -2

  /// The threads alive at a position (a bit per instruction) and the kind of scalar before it.
  private struct StateKey: Hashable {
    var threads: [UInt64]
    var before: PositionKind
  }

  init(_ program: PatternProgram, meter: PatternTableMeter? = nil) {
    self.program = program
    self.meter = meter
    columns = program.alphabet.count
    runKinds = (0..<program.alphabet.count).map {
      ScalarSet.isWord(program.alphabet.first(of: $0)) ? .word : .other
    }
    stepper = BitStepper(program, meter: meter)
    threadWords = stepper.words
    _ = state(StateKey(threads: Array(repeating: 0, count: threadWords), before: .edge))
  }

  deinit { meter?.release(meteredCells * 8 + stepper.tableBytes) }

  /// Bytes of tables held now (DFA cells at 8 bytes, the stepper's tables).
  var tableBytes: Int { cells * 8 + stepper.tableBytes }

  /// Whether a state of `size` cells fits this DFA's budget and the meter's room (taken if so).
  private func room(_ size: Int) -> Bool {
    guard cells + size <= Self.budget else { return false }
    guard let meter else { return true }
    guard meter.reserve(size * 8) else { return false }
    meteredCells += size
    return true
  }

  /// Whether the program matches somewhere in `text`.
  func matches(_ text: String) -> Bool {
    // State 0 is the start (made first, and again after each reset).
    var state: Int32 = 0
    var builtSinceReset = 1
    var readSinceReset = 0
    var scalars = text.unicodeScalars.makeIterator()
    while let scalar = scalars.next() {
      readSinceReset += 1
      let run = program.alphabet.run(of: scalar.value)
      let next = transitions[Int(state) * columns + run]
      if next >= 0 {
        state = next
        continue
      }
      if next == Self.matched { return true }
      guard let key = step(keys[Int(state)], run: run) else {
        transitions[Int(state) * columns + run] = Self.matched
        return true
      }
      if let known = numbers[key] {
        transitions[Int(state) * columns + run] = known
        state = known
        continue
      }
      if !room(key.threads.count + columns) {
        // Fewer than 10 scalars per state built: the DFA does not pay; run threads instead.
        if readSinceReset < 10 * builtSinceReset { return simulate(from: key, rest: &scalars) }
        reset()
        builtSinceReset = 0
        readSinceReset = 0
        state = self.state(key)
      } else {
        let from = state
        state = self.state(key)
        transitions[Int(from) * columns + run] = state
      }
      builtSinceReset += 1
    }
    if let end = ends[Int(state)] { return end }
    let end = matchesAtEnd(keys[Int(state)])
    ends[Int(state)] = end
    return end
  }

  /// The rest of the text thread by thread (no tables), from the threads of `key`.
  private func simulate(from key: StateKey, rest scalars: inout String.UnicodeScalarView.Iterator) -> Bool {
    var threads = key.threads
    var before = key.before
    while let scalar = scalars.next() {
      let run = program.alphabet.run(of: scalar.value)
      let after = runKinds[run]
      if stepper.advance(&threads, before: before, after: after, run: run) { return true }
      before = after
    }
    return stepper.close(threads, before: before, after: .edge)
  }

  /// The state numbered for `key`, made if new.
  private func state(_ key: StateKey) -> Int32 {
    if let known = numbers[key] { return known }
    let number = Int32(keys.count)
    numbers[key] = number
    keys.append(key)
    ends.append(nil)
    transitions.append(contentsOf: repeatElement(Self.unknown, count: columns))
    cells += key.threads.count + columns
    // A state made after `room` said yes is metered already; the start state, always made, is
    // taken whatever the meter says.
    if meteredCells < cells {
      meter?.take((cells - meteredCells) * 8)
      meteredCells = meter == nil ? 0 : cells
    }
    return number
  }

  private func reset() {
    numbers.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    transitions.removeAll(keepingCapacity: true)
    cells = 0
    meter?.release(meteredCells * 8)
    meteredCells = 0
    _ = state(StateKey(threads: Array(repeating: 0, count: threadWords), before: .edge))
  }

  /// The threads after reading a scalar of `run` from `key`, or `nil` when the program matches
  /// before it (a match may start at every position, so the first instruction joins each time).
  private func step(_ key: StateKey, run: Int) -> StateKey? {
    let after = runKinds[run]
    guard let next = stepper.step(key.threads, before: key.before, after: after, run: run) else { return nil }
    return StateKey(threads: next, before: after)
  }

  /// Whether the program matches at the end of the text, in state `key`.
  private func matchesAtEnd(_ key: StateKey) -> Bool {
    stepper.close(key.threads, before: key.before, after: .edge)
  }
}
