/// Advances the threads of a ``PatternProgram`` (a bit per instruction) by one scalar with
/// word-wide operations: the work of a new DFA state, and of every scalar once the DFA tables thrash.
///
/// A thread after a scalar instruction sits on the next instruction. When that one reads a scalar
/// too, it stays as it is (a mask); any other (split, jump, assertion, match) is replaced by what it
/// reaches without reading, looked up four threads at a time in a table of closures built the first
/// time it is needed. Reading then keeps the threads whose set holds the scalar and moves each to
/// the next instruction: a shift of the whole bit set. So a scalar costs a few operations per 64
/// instructions, plus one table lookup per four live threads that do not sit on a scalar
/// instruction — never a walk of the program.
///
/// The tables take at most ``tableLimit`` bytes per pattern (and what the pattern's meter, shared
/// with the other cached patterns, has left): past it a chunk not yet made is walked instead (one
/// walk for all such threads, each instruction visited at most once per scalar) and a scalar's row
/// is made for the step and dropped — slower, still linear in the text.
struct BitStepper {
  /// The most bytes of closure chunks and scalar rows one pattern keeps (a pattern of 1,000
  /// instructions with `\b`, `^` or `$` could otherwise take 4.6 MB).
  static let tableLimit = 1 << 20

  /// 64-bit words in a set of threads.
  let words: Int
  private let instructions: [PatternProgram.Instruction]
  private let sets: [ScalarSet]
  private let alphabet: PatternAlphabet
  /// The scalar instructions, and the others (whose closure is looked up).
  private let scalarMask: [UInt64]
  private let otherMask: [UInt64]
  private let matchWord: Int
  private let matchBit: UInt64
  /// Whether any assertion makes a closure depend on the kinds of scalars around the position.
  private let hasAssertions: Bool
  private let chunks: Int

  /// Per set: the scalar instructions reading it.
  private let setRows: [[UInt64]]
  /// Per run of the alphabet: the scalar instructions whose set holds it (empty: not made yet).
  private var runRows: [[UInt64]]
  /// Per pair of position kinds: the closure of the first instruction (a match may start anywhere).
  private var starts: [[UInt64]]
  /// Per pair of position kinds and chunk of four instructions: where the chunk's 16 closures (one
  /// per subset of its threads) start in ``spans``, or -1 until the chunk is first met. Only the
  /// chunks met take room: a pattern whose threads mostly sit on scalar instructions has few.
  private var slots: [Int32]
  /// The closures' words, 16 rows of ``words`` per chunk made, and each row's span: the words it
  /// sets, from the first to one past the last (a closure is mostly local).
  private var storage: [UInt64] = []
  private var spans: [Span] = []
  private var stack: [Int] = []
  private var visited: [UInt32]
  private var generation: UInt32 = 0
  /// Scratch: the closure of the threads being advanced.
  private var closed: [UInt64]
  /// Scratch: threads on instructions whose chunk has no table (past the limit), walked instead.
  private var direct: [Int] = []
  /// Scratch: a scalar's row when it has no table.
  private var row: [UInt64]
  /// Where table bytes are counted with the other patterns' (the cache's), if anywhere.
  private let meter: PatternTableMeter?
  /// Bytes of tables made (counted in ``meter`` too).
  private(set) var tableBytes = 0

  /// Words `low..<high` of the table row at `base`.
  private struct Span {
    var base: Int
    var low: Int
    var high: Int
  }

  init(_ program: PatternProgram, meter: PatternTableMeter? = nil) {
    self.meter = meter
    instructions = program.instructions
    sets = program.sets
    alphabet = program.alphabet
    let count = program.instructions.count
    words = max((count + 63) / 64, 1)
    chunks = (count + 3) / 4
    var scalarMask = [UInt64](repeating: 0, count: words)
    var otherMask = [UInt64](repeating: 0, count: words)
    var setRows = [[UInt64]](repeating: [UInt64](repeating: 0, count: words), count: program.sets.count)
    var matchIndex = count - 1
    var hasAssertions = false
    for (index, instruction) in program.instructions.enumerated() {
      let bit: UInt64 = 1 << UInt64(index & 63)
      switch instruction {
      case .scalar(let set):
        scalarMask[index >> 6] |= bit
        setRows[set][index >> 6] |= bit
      case .match:
        matchIndex = index
        otherMask[index >> 6] |= bit
      case .assertion:
        hasAssertions = true
        otherMask[index >> 6] |= bit
      case .split, .jump:
        otherMask[index >> 6] |= bit
      }
    }
    self.scalarMask = scalarMask
    self.otherMask = otherMask
    self.setRows = setRows
    self.hasAssertions = hasAssertions
    matchWord = matchIndex >> 6
    matchBit = 1 << UInt64(matchIndex & 63)
    runRows = Array(repeating: [], count: program.alphabet.count)
    let pairs = hasAssertions ? 9 : 1
    starts = Array(repeating: [], count: pairs)
    slots = Array(repeating: -1, count: pairs * chunks)
    visited = Array(repeating: 0, count: count)
    closed = Array(repeating: 0, count: words)
    row = Array(repeating: 0, count: words)
  }

  /// Bytes of one chunk's table (16 rows of ``words`` and their spans).
  private var chunkBytes: Int { 16 * words * 8 + 16 * MemoryLayout<Span>.stride }

  /// Takes `bytes` for a table when within this pattern's limit and its meter's; `false` otherwise.
  private mutating func room(_ bytes: Int) -> Bool {
    guard tableBytes + bytes <= Self.tableLimit, meter?.reserve(bytes) ?? true else { return false }
    tableBytes += bytes
    return true
  }

  /// The threads after reading a scalar of `run` (of kind `after`, the one before being `before`),
  /// or `nil` when the program matches before it.
  mutating func step(_ current: [UInt64], before: PositionKind, after: PositionKind, run: Int) -> [UInt64]? {
    var threads = current
    return advance(&threads, before: before, after: after, run: run) ? nil : threads
  }

  /// ``step(_:before:after:run:)`` in place; `true` when the program matches before the scalar.
  mutating func advance(_ threads: inout [UInt64], before: PositionKind, after: PositionKind, run: Int)
    -> Bool
  {
    if close(threads, before: before, after: after) { return true }
    if runRows[run].isEmpty, room(words * 8) { runRows[run] = makeRow(run) }
    if runRows[run].isEmpty {
      row = makeRow(run)
      Self.shift(&threads, closed: closed, row: row)
    } else {
      Self.shift(&threads, closed: closed, row: runRows[run])
    }
    return false
  }

  /// The threads of `closed` whose set holds the scalar (`row`), each moved to the next instruction.
  private static func shift(_ threads: inout [UInt64], closed: [UInt64], row: [UInt64]) {
    let words = threads.count
    threads.withUnsafeMutableBufferPointer { threads in
      closed.withUnsafeBufferPointer { closed in
        row.withUnsafeBufferPointer { row in
          var carry: UInt64 = 0
          for word in 0..<words {
            let kept = closed[word] & row[word]
            threads[word] = kept << 1 | carry
            carry = kept >> 63
          }
        }
      }
    }
  }

  /// Fills ``closed`` with what `threads` and the first instruction reach without reading, between
  /// a scalar of kind `before` and one of kind `after`; `true` when that reaches the match.
  mutating func close(_ threads: [UInt64], before: PositionKind, after: PositionKind) -> Bool {
    let pair = hasAssertions ? Int(before.rawValue) * 3 + Int(after.rawValue) : 0
    if starts[pair].isEmpty {
      starts[pair] = closure(of: 0, pair: pair)
      // A start row per pair of kinds (at most nine) is always kept.
      tableBytes += words * 8
      meter?.take(words * 8)
    }
    // The chunks of the threads on other instructions, made first (within the limit), then their
    // rows or-ed in; the threads of a chunk without a table are walked.
    for word in 0..<words {
      var others = threads[word] & otherMask[word]
      while others != 0 {
        let shift = others.trailingZeroBitCount & ~3
        let subset = others >> UInt64(shift) & 0xF
        others &= ~(0xF << UInt64(shift))
        let chunk = word * 16 + shift / 4
        guard slots[pair * chunks + chunk] < 0 else { continue }
        if room(chunkBytes) {
          makeChunk(chunk, pair: pair)
        } else {
          for bit in 0..<4 where subset & 1 << UInt64(bit) != 0 { direct.append(word * 64 + shift + bit) }
        }
      }
    }
    let (words, chunks) = (words, chunks)
    closed.withUnsafeMutableBufferPointer { closed in
      threads.withUnsafeBufferPointer { threads in
        scalarMask.withUnsafeBufferPointer { scalars in
          starts[pair].withUnsafeBufferPointer { start in
            for word in 0..<words { closed[word] = threads[word] & scalars[word] | start[word] }
          }
        }
        otherMask.withUnsafeBufferPointer { otherMask in
          slots.withUnsafeBufferPointer { slots in
            spans.withUnsafeBufferPointer { spans in
              storage.withUnsafeBufferPointer { table in
                for word in 0..<words {
                  var others = threads[word] & otherMask[word]
                  while others != 0 {
                    let shift = others.trailingZeroBitCount & ~3
                    let subset = Int(others >> UInt64(shift) & 0xF)
                    others &= ~(0xF << UInt64(shift))
                    let slot = Int(slots[pair &* chunks &+ word &* 16 &+ shift >> 2])
                    guard slot >= 0 else { continue }
                    let row = spans[slot &+ subset]
                    for target in row.low..<row.high { closed[target] |= table[row.base &+ target] }
                  }
                }
              }
            }
          }
        }
      }
    }
    if !direct.isEmpty { walk(pair: pair) }
    return closed[matchWord] & matchBit != 0
  }

  private func makeRow(_ run: Int) -> [UInt64] {
    let value = alphabet.first(of: run)
    var row = [UInt64](repeating: 0, count: words)
    for (number, set) in sets.enumerated() where set.contains(value: value) {
      for word in 0..<words { row[word] |= setRows[number][word] }
    }
    return row
  }

  /// The 16 closures of the subsets of instructions `4 chunk ..< 4 chunk + 4` (only those that are
  /// not scalar instructions are ever looked up), appended to ``storage`` and ``spans``.
  private mutating func makeChunk(_ chunk: Int, pair: Int) {
    var singles: [[UInt64]] = []
    for index in chunk * 4..<chunk * 4 + 4 {
      let isOther = index < instructions.count && otherMask[index >> 6] & 1 << UInt64(index & 63) != 0
      singles.append(isOther ? closure(of: index, pair: pair) : [UInt64](repeating: 0, count: words))
    }
    let first = storage.count
    slots[pair * chunks + chunk] = Int32(spans.count)
    storage.append(contentsOf: repeatElement(0, count: 16 * words))
    spans.append(Span(base: first, low: 0, high: 0))
    for subset in 1..<16 {
      let lowest = subset.trailingZeroBitCount
      let base = first + (subset & (subset - 1)) * words
      let target = first + subset * words
      var span = Span(base: target, low: words, high: 0)
      for word in 0..<words {
        let bits = storage[base + word] | singles[lowest][word]
        storage[target + word] = bits
        if bits != 0 {
          span.low = min(span.low, word)
          span.high = word + 1
        }
      }
      spans.append(span.low < span.high ? span : Span(base: target, low: 0, high: 0))
    }
  }

  /// Ors into ``closed`` the scalar instructions (and the match) the threads of ``direct`` reach
  /// without reading, for kind pair `pair`: one walk for all, each instruction visited once.
  private mutating func walk(pair: Int) {
    let before = PositionKind(rawValue: UInt8(pair / 3)) ?? .edge
    let after = PositionKind(rawValue: UInt8(pair % 3)) ?? .edge
    nextGeneration()
    stack.removeAll(keepingCapacity: true)
    stack.append(contentsOf: direct)
    direct.removeAll(keepingCapacity: true)
    while let index = stack.popLast() {
      guard visited[index] != generation else { continue }
      visited[index] = generation
      switch instructions[index] {
      case .scalar, .match: closed[index >> 6] |= 1 << UInt64(index & 63)
      case .jump(let target): stack.append(target)
      case .split(let first, let second): stack += [second, first]
      case .assertion(let assertion):
        if assertion.holds(before: before, after: after) { stack.append(index + 1) }
      }
    }
  }

  private mutating func nextGeneration() {
    generation &+= 1
    if generation == 0 {
      for index in visited.indices { visited[index] = 0 }
      generation = 1
    }
  }

  /// The scalar instructions (and the match) `start` reaches without reading, for kind pair `pair`.
  private mutating func closure(of start: Int, pair: Int) -> [UInt64] {
    let before = PositionKind(rawValue: UInt8(pair / 3)) ?? .edge
    let after = PositionKind(rawValue: UInt8(pair % 3)) ?? .edge
    var reached = [UInt64](repeating: 0, count: words)
    nextGeneration()
    stack.removeAll(keepingCapacity: true)
    stack.append(start)
    while let index = stack.popLast() {
      guard visited[index] != generation else { continue }
      visited[index] = generation
      switch instructions[index] {
      case .scalar, .match: reached[index >> 6] |= 1 << UInt64(index & 63)
      case .jump(let target): stack.append(target)
      case .split(let first, let second): stack += [second, first]
      case .assertion(let assertion):
        // Without assertions every pair is pair 0, and no assertion is met.
        if assertion.holds(before: before, after: after) { stack.append(index + 1) }
      }
    }
    return reached
  }
}
