import Foundation

/// A regular expression matched in time linear in the text, with a small constant whatever its
/// shape: the pattern compiles to a Thompson automaton of at most ``maximumSize`` instructions
/// (counted repetitions copied out; a larger one is refused), which is run as a DFA built lazily,
/// one table lookup per scalar once a state is known (``PatternAutomaton``), or, when the DFA would
/// be too large, as a bit set of all live threads advanced a word at a time (``BitStepper``): at
/// most a few operations per 64 instructions for each scalar. No input can make it
/// backtrack: `^([a-z0-9]+_?)+$` against `page_view_abcd…!` takes 12.7 s in a backtracking engine
/// and microseconds here.
///
/// The dialect is ECMA-262's (JSON Schema's `pattern`) without backreferences and lookaround,
/// which no linear-time matcher can offer; those are refused with a ``PatternError`` naming the
/// offset, as is a pattern that expands to more than ``maximumSize`` instructions.
public struct LinearPattern: Sendable {
  /// The most instructions a compiled pattern may have (bounded repetitions are expanded).
  public static let maximumSize = 1_000

  private let program: PatternProgram
  private let automaton: SharedAutomaton
  private let meter: PatternTableMeter?

  /// Compiles `pattern`, or throws what is wrong with it and where.
  public init(_ pattern: String) throws(PatternError) {
    try self.init(pattern, meter: nil)
  }

  /// Compiles `pattern`, its tables counted by `meter` (see ``PatternTableMeter``).
  init(_ pattern: String, meter: PatternTableMeter?) throws(PatternError) {
    var parser = PatternParser(pattern)
    let tree = try parser.parse()
    program = try PatternProgram(tree, limit: Self.maximumSize)
    self.meter = meter
    automaton = SharedAutomaton(program, meter: meter)
  }

  /// A pattern finding `needle` anywhere, ignoring ASCII case (the filters' `~text`): the DFA of a
  /// literal has a state per character, so it is matched in time linear in the text, unlike a
  /// plain search (0.36 s for a 100-character needle in 100 KB); `nil` when `needle` is empty, not
  /// ASCII or longer than ``maximumLiteral``.
  public init?(caseInsensitiveLiteral needle: String) {
    self.init(caseInsensitiveLiteral: needle, meter: nil)
  }

  /// ``init(caseInsensitiveLiteral:)`` with its tables counted by `meter`.
  init?(caseInsensitiveLiteral needle: String, meter: PatternTableMeter?) {
    guard !needle.isEmpty, needle.utf8.count <= Self.maximumLiteral, needle.utf8.allSatisfy({ $0 < 0x80 })
    else { return nil }
    let parts = needle.unicodeScalars.map { scalar -> PatternNode in
      let lower = scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
      let upper = scalar.properties.uppercaseMapping.unicodeScalars.first ?? scalar
      return .scalar(
        ScalarSet(
          items: [.range(lower.value, lower.value), .range(upper.value, upper.value)], negated: false))
    }
    guard let program = try? PatternProgram(.concatenation(parts), limit: Self.maximumLiteral + 2) else {
      return nil
    }
    self.program = program
    self.meter = meter
    automaton = SharedAutomaton(program, meter: meter)
  }

  /// The longest needle ``init(caseInsensitiveLiteral:)`` takes.
  public static let maximumLiteral = 10_000

  /// Whether the pattern matches somewhere in `text` (as JSON Schema's `pattern` does).
  public func matches(_ text: String) -> Bool {
    // The shared tables when free; a thread finding them busy builds its own rather than wait.
    guard automaton.lock.try() else { return PatternAutomaton(program, meter: meter).matches(text) }
    defer { automaton.lock.unlock() }
    return automaton.automaton.matches(text)
  }

  /// Bytes of lookup tables the pattern keeps now (its DFA states and closure tables, which grow
  /// as it matches, up to about 3 MiB).
  public var tableBytes: Int {
    automaton.lock.withLock { automaton.automaton.tableBytes }
  }

  /// ``tableBytes`` without waiting: 0 while another thread matches with the pattern.
  var tableBytesIfIdle: Int {
    guard automaton.lock.try() else { return 0 }
    defer { automaton.lock.unlock() }
    return automaton.automaton.tableBytes
  }

  /// The pattern's automaton, kept between matches behind a lock.
  private final class SharedAutomaton: @unchecked Sendable {
    let lock = NSLock()
    // Guarded by `lock`.
    let automaton: PatternAutomaton

    init(_ program: PatternProgram, meter: PatternTableMeter?) {
      automaton = PatternAutomaton(program, meter: meter)
    }
  }
}
