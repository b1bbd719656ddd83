/// A pattern compiled to a Thompson automaton: instructions (bounded repetitions copied out), the
/// distinct scalar sets they read, and the alphabet those sets split Unicode into.
struct PatternProgram: Sendable {
  enum Instruction: Sendable {
    /// Reads one scalar of `sets[set]`.
    case scalar(set: Int)
    case assertion(PatternAssertion)
    case split(Int, Int)
    case jump(Int)
    case match
  }

  let instructions: [Instruction]
  let sets: [ScalarSet]
  let alphabet: PatternAlphabet

  /// Compiles `tree`; refuses (naming the quantifier's offset) a program over `limit` instructions.
  init(_ tree: PatternNode, limit: Int) throws(PatternError) {
    var compiler = Compiler(limit: limit)
    try compiler.emit(tree)
    compiler.program.append(.match)
    instructions = compiler.program
    sets = compiler.sets
    alphabet = PatternAlphabet(sets: compiler.sets)
  }

  private struct Compiler {
    let limit: Int
    var program: [Instruction] = []
    var sets: [ScalarSet] = []
    var setNumbers: [ScalarSet: Int] = [:]
    /// Nodes emitted: repetitions of what emits nothing (`(){1000}`) count too.
    var emitted = 0

    init(limit: Int) { self.limit = limit }

    /// `offset`: the outermost repetition being copied out, named when the program grows too big.
    mutating func emit(_ node: PatternNode, offset: Int? = nil) throws(PatternError) {
      emitted += 1
      // One instruction is the final match.
      guard program.count < limit - 1 && emitted <= 4 * limit else {
        throw PatternError(
          offset: offset ?? 0,
          reason:
            "the pattern expands to more than \(limit) steps (a counted repetition is copied once per count)")
      }
      switch node {
      case .empty: break
      case .scalar(let set):
        let number = setNumbers[set] ?? sets.count
        if number == sets.count {
          sets.append(set)
          setNumbers[set] = number
        }
        program.append(.scalar(set: number))
      case .assertion(let assertion): program.append(.assertion(assertion))
      case .concatenation(let parts): for part in parts { try emit(part, offset: offset) }
      case .alternation(let branches):
        // split L1, next; L1: branch; jump end; next: split … ; last branch
        var jumps: [Int] = []
        for (index, branch) in branches.enumerated() {
          if index < branches.count - 1 {
            let split = program.count
            program.append(.split(split + 1, 0))
            try emit(branch, offset: offset)
            jumps.append(program.count)
            program.append(.jump(0))
            program[split] = .split(split + 1, program.count)
          } else {
            try emit(branch, offset: offset)
          }
        }
        for jump in jumps { program[jump] = .jump(program.count) }
      case .repetition(let inner, let minimum, let maximum, let own):
        let offset = offset ?? own
        for _ in 0..<minimum { try emit(inner, offset: offset) }
        if let maximum {
          var splits: [Int] = []
          for _ in minimum..<maximum {
            splits.append(program.count)
            program.append(.split(program.count + 1, 0))
            try emit(inner, offset: offset)
          }
          for split in splits { program[split] = .split(split + 1, program.count) }
        } else {
          let split = program.count
          program.append(.split(split + 1, 0))
          try emit(inner, offset: offset)
          program.append(.jump(split))
          program[split] = .split(split + 1, program.count)
        }
      }
    }
  }
}

/// Unicode split into runs of scalar values that every set of a pattern (and `\w`, for `\b`)
/// treats alike: the matcher's alphabet, so its tables have one column per run, not per scalar.
struct PatternAlphabet: Sendable {
  /// The first value of every run but the first (which starts at 0), ascending.
  private let starts: [UInt32]
  private let ascii: [Int32]

  init(sets: [ScalarSet]) {
    var values = Set(ScalarSet.wordBoundaries)
    for set in sets { values.formUnion(set.boundaries) }
    let starts = values.filter { $0 > 0 && $0 <= 0x10_FFFF }.sorted()
    self.starts = starts
    ascii = (0..<128).map { value in Int32(Self.run(of: UInt32(value), in: starts)) }
  }

  /// The number of runs.
  var count: Int { starts.count + 1 }

  /// The run holding `value`.
  @inline(__always)
  func run(of value: UInt32) -> Int {
    value < 128 ? Int(ascii[Int(value)]) : Self.run(of: value, in: starts)
  }

  /// The first value of `run`.
  func first(of run: Int) -> UInt32 { run == 0 ? 0 : starts[run - 1] }

  /// The number of run starts at or below `value`.
  private static func run(of value: UInt32, in starts: [UInt32]) -> Int {
    var low = 0
    var high = starts.count
    while low < high {
      let middle = (low + high) / 2
      if starts[middle] <= value { low = middle + 1 } else { high = middle }
    }
    return low
  }
}
