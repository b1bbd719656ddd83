/// Parses a pattern into a ``PatternNode`` (recursive descent over its Unicode scalars).
struct PatternParser {
  private let scalars: [Unicode.Scalar]
  private var index = 0
  private var depth = 0

  /// Groups nested deeper than this are refused (the parser recurses once per level).
  static let maximumDepth = 200

  init(_ pattern: String) { scalars = Array(pattern.unicodeScalars) }

  mutating func parse() throws(PatternError) -> PatternNode {
    let node = try alternation()
    if index < scalars.count { throw error("unmatched )") }
    return node
  }

  private func error(_ reason: String) -> PatternError { PatternError(offset: index, reason: reason) }

  private var peek: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

  private mutating func take(_ scalar: Unicode.Scalar) -> Bool {
    guard peek == scalar else { return false }
    index += 1
    return true
  }

  private mutating func alternation() throws(PatternError) -> PatternNode {
    var branches = [try concatenation()]
    while take("|") { branches.append(try concatenation()) }
    return branches.count == 1 ? branches[0] : Self.merged(branches)
  }

  /// `.alternation(branches)`, or one set when every branch reads one scalar of a set that is not
  /// negated: `(a|b)` reads as `[ab]`, one instruction instead of four, which keeps repetitions of
  /// it cheap to match.
  private static func merged(_ branches: [PatternNode]) -> PatternNode {
    var items: [ScalarSet.Item] = []
    for branch in branches {
      guard case .scalar(let set) = branch, !set.negated else { return .alternation(branches) }
      items += set.items
    }
    return .scalar(ScalarSet(items: items, negated: false))
  }

  private mutating func concatenation() throws(PatternError) -> PatternNode {
    var parts: [PatternNode] = []
    while let next = peek, next != "|", next != ")" { parts.append(try quantified()) }
    switch parts.count {
    case 0: return .empty
    case 1: return parts[0]
    default: return .concatenation(parts)
    }
  }

  private mutating func quantified() throws(PatternError) -> PatternNode {
    let start = index
    var node = try atom()
    while let next = peek {
      let offset = index
      let bounds: (Int, Int?)
      switch next {
      case "*":
        index += 1
        bounds = (0, nil)
      case "+":
        index += 1
        bounds = (1, nil)
      case "?":
        index += 1
        bounds = (0, 1)
      case "{":
        guard let interval = try interval() else { return node }
        bounds = interval
      default: return node
      }
      if case .assertion = node { throw PatternError(offset: start, reason: "nothing to repeat") }
      _ = take("?")  // lazy: the same strings match
      node = .repetition(node, minimum: bounds.0, maximum: bounds.1, offset: offset)
    }
    return node
  }

  /// `{m}`, `{m,}` or `{m,n}` at the cursor; `nil` (cursor unmoved) when it is a literal `{`.
  private mutating func interval() throws(PatternError) -> (Int, Int?)? {
    let start = index
    index += 1
    guard let minimum = number() else {
      index = start
      return nil
    }
    var maximum: Int? = minimum
    if take(",") { maximum = number() }
    guard take("}") else {
      index = start
      return nil
    }
    if let maximum, maximum < minimum {
      throw PatternError(offset: start, reason: "{\(minimum),\(maximum)} is out of order")
    }
    if minimum > 1000 || (maximum ?? 0) > 1000 {
      throw PatternError(offset: start, reason: "repetition counts above 1000 are not supported")
    }
    return (minimum, maximum)
  }

  private mutating func number() -> Int? {
    var value = 0
    var digits = 0
    while let next = peek, next.value >= 0x30 && next.value <= 0x39 {
      value = min(value * 10 + Int(next.value - 0x30), 1_000_000)
      digits += 1
      index += 1
    }
    return digits > 0 ? value : nil
  }

  private mutating func atom() throws(PatternError) -> PatternNode {
    guard let next = peek else { throw error("unexpected end") }
    index += 1
    switch next {
    case "(": return try group()
    case "[": return .scalar(try characterClass())
    case ".": return .scalar(.dot)
    case "^": return .assertion(.start)
    case "$": return .assertion(.end)
    case "\\": return try escape()
    case "*", "+", "?":
      index -= 1
      throw error("nothing to repeat")
    default: return .scalar(.single(next))
    }
  }

  private mutating func group() throws(PatternError) -> PatternNode {
    depth += 1
    defer { depth -= 1 }
    if depth > Self.maximumDepth { throw error("groups nested deeper than \(Self.maximumDepth)") }
    if take("?") {
      if take(":") {
      } else if take("<"), let next = peek, next != "=", next != "!" {
        while let name = peek, name != ">" { index += 1 }  // a named group: the name is not needed
        guard take(">") else { throw error("unterminated group name") }
      } else {
        throw error("lookahead and lookbehind are not supported (tagscope matches patterns in linear time)")
      }
    }
    let inner = try alternation()
    guard take(")") else { throw error("missing )") }
    return inner
  }

  private mutating func escape() throws(PatternError) -> PatternNode {
    guard let next = peek else { throw error("\\ at the end of the pattern") }
    switch next {
    case "b":
      index += 1
      return .assertion(.wordBoundary)
    case "B":
      index += 1
      return .assertion(.notWordBoundary)
    case "1"..."9":
      throw error("backreferences are not supported (tagscope matches patterns in linear time)")
    default:
      return .scalar(try classEscape(inClass: false))
    }
  }

  /// The escape after a `\` (consumed), as a set: `\d`, `\n`, `\u00e9`, `\.`….
  private mutating func classEscape(inClass: Bool) throws(PatternError) -> ScalarSet {
    guard let next = peek else { throw error("\\ at the end of the pattern") }
    index += 1
    func set(_ item: ScalarSet.Item) -> ScalarSet { ScalarSet(items: [item], negated: false) }
    switch next {
    case "d": return set(.digit)
    case "D": return set(.notDigit)
    case "w": return set(.word)
    case "W": return set(.notWord)
    case "s": return set(.space)
    case "S": return set(.notSpace)
    case "n": return .single("\n")
    case "r": return .single("\r")
    case "t": return .single("\t")
    case "f": return .single("\u{0C}")
    case "v": return .single("\u{0B}")
    case "0": return .single("\u{0}")
    case "b" where inClass: return .single("\u{08}")
    case "x": return .single(try hex(count: 2))
    case "u":
      if take("{") {
        var value: UInt32 = 0
        while let digit = peek, let nibble = digit.hexDigitValue {
          value = min(value * 16 + UInt32(nibble), 0x11_0000)
          index += 1
        }
        guard take("}"), let scalar = Unicode.Scalar(value) else { throw error("bad \\u{…} escape") }
        return .single(scalar)
      }
      return .single(try hex(count: 4))
    case "c":
      guard let letter = peek, letter.isASCII, letter.properties.isAlphabetic else { return .single("c") }
      index += 1
      return .single(Unicode.Scalar(letter.value % 32)!)
    default:
      if next.isASCII && next.properties.isAlphabetic {
        index -= 1
        throw error("unknown escape \\\(next)")
      }
      return .single(next)
    }
  }

  private mutating func hex(count: Int) throws(PatternError) -> Unicode.Scalar {
    var value: UInt32 = 0
    for _ in 0..<count {
      guard let digit = peek, let nibble = digit.hexDigitValue else { throw error("bad hexadecimal escape") }
      value = value * 16 + UInt32(nibble)
      index += 1
    }
    guard let scalar = Unicode.Scalar(value) else { throw error("escape is not a Unicode scalar") }
    return scalar
  }

  /// A bracketed class, its `[` consumed.
  private mutating func characterClass() throws(PatternError) -> ScalarSet {
    var result = ScalarSet(items: [], negated: take("^"))
    // A `]` right after `[` or `[^` is literal (as in PCRE, ICU and Python; ECMA would read `[]`).
    var first = true
    while true {
      guard let next = peek else { throw error("missing ]") }
      defer { first = false }
      if next == "]" && !first {
        index += 1
        return result
      }
      let low = try classAtom()
      if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
        index += 1
        let high = try classAtom()
        guard let from = low.singleValue, let to = high.singleValue else {
          throw error("a range needs single characters at both ends")
        }
        guard from <= to else { throw error("range out of order") }
        result.items.append(.range(from, to))
      } else {
        result.items += low.items
      }
    }
  }

  private mutating func classAtom() throws(PatternError) -> ScalarSet {
    guard let next = peek else { throw error("missing ]") }
    index += 1
    if next == "\\" { return try classEscape(inClass: true) }
    return .single(next)
  }
}

extension ScalarSet {
  /// The one scalar this set is, if it is a single scalar.
  fileprivate var singleValue: UInt32? {
    guard !negated, items.count == 1, case .range(let low, let high) = items[0], low == high else {
      return nil
    }
    return low
  }
}

extension Unicode.Scalar {
  fileprivate var hexDigitValue: Int? {
    switch value {
    case 0x30...0x39: return Int(value - 0x30)
    case 0x41...0x46: return Int(value - 0x41 + 10)
    case 0x61...0x66: return Int(value - 0x61 + 10)
    default: return nil
    }
  }
}
