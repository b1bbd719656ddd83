/// Runs a ``PatternProgram`` over a text as a DFA built lazily: each state is the set of program
/// threads alive at a position (with the kind of scalar before it, for assertions), made the first
/// time it is reached and then followed by table lookup, one per scalar. The tables have a budget;
/// when they fill they are cleared and rebuilt, and when that happens faster than the text moves
/// (a pattern whose DFA is exponential) the rest of the text is run thread by thread instead, each
/// scalar then costing at most the program's size, which the compiler caps.
///
/// Not thread safe: ``LinearPattern`` keeps one per pattern behind a lock and makes a private one
/// when that one is busy.
final class PatternAutomaton {
  /// Table cells (transitions, state keys, membership rows) kept at most.
  static let budget = 1 << 18

  private let program: PatternProgram
  private let columns: Int
  private let setWords: Int
  private let threadWords: Int
  private let runKinds: [PositionKind]

  private var numbers: [StateKey: Int32] = [:]
  private var keys: [StateKey] = []
  /// `columns` cells per state: the next state, `unknown` or `matched`.
  private var transitions: [Int32] = []
  /// Per state: whether the text ending here matches (`nil`: not asked yet).
  private var ends: [Bool?] = []
  /// Per run: the sets holding its scalars, a bit per set (empty: not computed yet).
  private var membership: [[UInt64]]
  private var cells = 0

  private var stepper: ThreadStepper

  private static let unknown: Int32 = -1
  private static let matched: Int32 = -2

  /// The threads alive at a position (a bit per instruction) and the kind of scalar before it.
  private struct StateKey: Hashable {
    var threads: [UInt64]
    var before: PositionKind
  }

  init(_ program: PatternProgram) {
    self.program = program
    columns = program.alphabet.count
    setWords = (program.sets.count + 63) / 64
    threadWords = (program.instructions.count + 63) / 64
    runKinds = (0..<program.alphabet.count).map {
      ScalarSet.isWord(program.alphabet.first(of: $0)) ? .word : .other
    }
    membership = Array(repeating: [], count: program.alphabet.count)
    stepper = ThreadStepper(program.instructions)
    _ = state(StateKey(threads: Array(repeating: 0, count: threadWords), before: .edge))
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
      if cells + key.threads.count + columns > Self.budget {
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
    var key = key
    while let scalar = scalars.next() {
      guard let next = step(key, run: program.alphabet.run(of: scalar.value)) else { return true }
      key = next
    }
    return matchesAtEnd(key)
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
    return number
  }

  private func reset() {
    numbers.removeAll(keepingCapacity: true)
    keys.removeAll(keepingCapacity: true)
    ends.removeAll(keepingCapacity: true)
    transitions.removeAll(keepingCapacity: true)
    for run in membership.indices where !membership[run].isEmpty { membership[run] = [] }
    cells = 0
    _ = state(StateKey(threads: Array(repeating: 0, count: threadWords), before: .edge))
  }

  /// The threads after reading a scalar of `run` from `key`, or `nil` when the program matches
  /// before it (a match may start at every position, so the first instruction joins each time).
  private func step(_ key: StateKey, run: Int) -> StateKey? {
    if membership[run].isEmpty { computeMembership(of: run) }
    let after = runKinds[run]
    guard let next = stepper.step(key.threads, before: key.before, after: after, sets: membership[run]) else {
      return nil
    }
    return StateKey(threads: next, before: after)
  }

  /// Whether the program matches at the end of the text, in state `key`.
  private func matchesAtEnd(_ key: StateKey) -> Bool {
    stepper.close(key.threads, before: key.before, after: .edge)
  }

  private func computeMembership(of run: Int) {
    let value = program.alphabet.first(of: run)
    var row = [UInt64](repeating: 0, count: max(setWords, 1))
    for (number, set) in program.sets.enumerated() where set.contains(value: value) {
      row[number >> 6] |= 1 << UInt64(number & 63)
    }
    membership[run] = row
    cells += row.count
  }
}

/// Advances a set of threads (a bit per instruction) by one scalar: the work of a new DFA state, or
/// of every scalar once the tables thrash. A value, so its loops touch no shared state.
private struct ThreadStepper {
  private let instructions: [PatternProgram.Instruction]
  private var threads: SparseSet
  private var stack: [Int] = []

  init(_ instructions: [PatternProgram.Instruction]) {
    self.instructions = instructions
    threads = SparseSet(capacity: instructions.count)
  }

  /// The threads after reading a scalar in `sets` (a bit per set holding it), or `nil` when the
  /// program matches before it.
  mutating func step(_ current: [UInt64], before: PositionKind, after: PositionKind, sets: [UInt64])
    -> [UInt64]?
  {
    if close(current, before: before, after: after) { return nil }
    var next = [UInt64](repeating: 0, count: current.count)
    for thread in threads.members {
      guard case .scalar(let set) = instructions[thread], sets[set >> 6] & (1 << UInt64(set & 63)) != 0 else {
        continue
      }
      next[(thread + 1) >> 6] |= 1 << UInt64((thread + 1) & 63)
    }
    return next
  }

  /// Fills ``threads`` with `current`, the first instruction, and everything they reach without
  /// reading (splits, jumps, assertions that hold between kinds `before` and `after`); `true` when
  /// that reaches the match.
  mutating func close(_ current: [UInt64], before: PositionKind, after: PositionKind) -> Bool {
    threads.clear()
    stack.removeAll(keepingCapacity: true)
    stack.append(0)
    for (word, bits) in current.enumerated() where bits != 0 {
      var bits = bits
      while bits != 0 {
        stack.append(word << 6 | bits.trailingZeroBitCount)
        bits &= bits - 1
      }
    }
    while let thread = stack.popLast() {
      guard threads.insert(thread) else { continue }
      switch instructions[thread] {
      case .match: return true
      case .jump(let target): stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .assertion(let assertion):
        if assertion.holds(before: before, after: after) { stack.append(thread + 1) }
      case .scalar: break
      }
    }
    return false
  }
}

/// A set of small integers with constant-time insert and clear (a sparse set), in insertion order.
struct SparseSet {
  private(set) var members: [Int] = []
  private var marks: [UInt32]
  private var generation: UInt32 = 1

  init(capacity: Int) { marks = Array(repeating: 0, count: capacity) }

  mutating func insert(_ member: Int) -> Bool {
    if marks[member] == generation { return false }
    marks[member] = generation
    members.append(member)
    return true
  }

  mutating func clear() {
    members.removeAll(keepingCapacity: true)
    generation &+= 1
    if generation == 0 {
      for index in marks.indices { marks[index] = 0 }
      generation = 1
    }
  }
}
