/// A regular expression matched in time linear in the text: the pattern compiles to a Thompson
/// automaton that is run breadth first (every live state advanced one scalar at a time), so no
/// input can make it backtrack. `^([a-z0-9]+_?)+$` against `page_view_abcd…!` takes 12.7 s in a
/// backtracking engine and microseconds here.
///
/// The dialect is ECMA-262's (JSON Schema's `pattern`) without backreferences and lookaround,
/// which no linear-time matcher can offer; those are refused with a ``PatternError`` naming the
/// offset, as is a pattern that expands to more than ``maximumSize`` instructions.
public struct LinearPattern: Sendable {
  private enum Instruction: Sendable {
    case scalar(ScalarSet)
    case assertion(PatternAssertion)
    case split(Int, Int)
    case jump(Int)
    case match
  }

  /// The most instructions a compiled pattern may have (bounded repetitions are expanded).
  public static let maximumSize = 20_000

  private let program: [Instruction]

  /// Compiles `pattern`, or throws what is wrong with it and where.
  public init(_ pattern: String) throws(PatternError) {
    var parser = PatternParser(pattern)
    let tree = try parser.parse()
    var compiler = Compiler()
    try compiler.emit(tree)
    compiler.program.append(.match)
    program = compiler.program
  }

  /// Whether the pattern matches somewhere in `text` (as JSON Schema's `pattern` does).
  public func matches(_ text: String) -> Bool {
    var scalars = text.unicodeScalars.makeIterator()
    var current = StateSet(capacity: program.count)
    var next = StateSet(capacity: program.count)
    var before: Unicode.Scalar?
    var after = scalars.next()
    var stack: [Int] = []
    while true {
      // A match may start at every position.
      if add(0, to: &current, before: before, after: after, stack: &stack) { return true }
      guard let scalar = after else { return false }
      let following = scalars.next()
      next.clear()
      for state in current.states {
        guard case .scalar(let set) = program[state], set.contains(scalar) else { continue }
        if add(state + 1, to: &next, before: scalar, after: following, stack: &stack) { return true }
      }
      swap(&current, &next)
      before = scalar
      after = following
    }
  }

  /// Adds `state` and every state reachable from it without reading (splits, jumps, assertions
  /// that hold here); `true` when that reaches the match.
  private func add(
    _ state: Int, to set: inout StateSet, before: Unicode.Scalar?, after: Unicode.Scalar?, stack: inout [Int]
  ) -> Bool {
    stack.removeAll(keepingCapacity: true)
    stack.append(state)
    while let state = stack.popLast() {
      guard set.insert(state) else { continue }
      switch program[state] {
      case .match: return true
      case .jump(let target): stack.append(target)
      case .split(let first, let second):
        stack.append(second)
        stack.append(first)
      case .assertion(let assertion):
        if assertion.holds(before: before, after: after) { stack.append(state + 1) }
      case .scalar: break
      }
    }
    return false
  }

  /// A set of states with constant-time insert and clear (a sparse set), in insertion order.
  private struct StateSet {
    private(set) var states: [Int] = []
    private var marks: [UInt32]
    private var generation: UInt32 = 1

    init(capacity: Int) { marks = Array(repeating: 0, count: capacity) }

    mutating func insert(_ state: Int) -> Bool {
      if marks[state] == generation { return false }
      marks[state] = generation
      states.append(state)
      return true
    }

    mutating func clear() {
      states.removeAll(keepingCapacity: true)
      generation &+= 1
      if generation == 0 {
        for index in marks.indices { marks[index] = 0 }
        generation = 1
      }
    }
  }

  private struct Compiler {
    var program: [Instruction] = []

    mutating func emit(_ node: PatternNode) throws(PatternError) {
      guard program.count <= LinearPattern.maximumSize else {
        throw PatternError(
          offset: 0, reason: "the pattern expands to more than \(LinearPattern.maximumSize) steps")
      }
      switch node {
      case .empty: break
      case .scalar(let set): program.append(.scalar(set))
      case .assertion(let assertion): program.append(.assertion(assertion))
      case .concatenation(let parts): for part in parts { try emit(part) }
      case .alternation(let branches):
        // split L1, next; L1: branch; jump end; next: split … ; last branch
        var jumps: [Int] = []
        for (index, branch) in branches.enumerated() {
          if index < branches.count - 1 {
            let split = program.count
            program.append(.split(split + 1, 0))
            try emit(branch)
            jumps.append(program.count)
            program.append(.jump(0))
            program[split] = .split(split + 1, program.count)
          } else {
            try emit(branch)
          }
        }
        for jump in jumps { program[jump] = .jump(program.count) }
      case .repetition(let inner, let minimum, let maximum):
        for _ in 0..<minimum { try emit(inner) }
        if let maximum {
          var splits: [Int] = []
          for _ in minimum..<maximum {
            splits.append(program.count)
            program.append(.split(program.count + 1, 0))
            try emit(inner)
          }
          for split in splits { program[split] = .split(split + 1, program.count) }
        } else {
          let split = program.count
          program.append(.split(split + 1, 0))
          try emit(inner)
          program.append(.jump(split))
          program[split] = .split(split + 1, program.count)
        }
      }
    }
  }
}
