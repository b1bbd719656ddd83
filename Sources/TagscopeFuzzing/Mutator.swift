/// A seeded byte-level mutator in the manner of libFuzzer's: each call derives a new input from a
/// corpus entry by flipping, inserting, deleting, duplicating or overwriting bytes, inserting a
/// token from a dictionary (JSON and YAML syntax, edge-case numbers, escapes, invalid UTF-8), or
/// splicing in part of another entry. The same seed gives the same inputs on every machine.
public struct Mutator: Sendable {
  private var random: SeededGenerator
  private let corpus: [[UInt8]]
  private let dictionary: [[UInt8]]
  /// The longest input produced.
  public let maximumLength: Int

  /// A mutator over `corpus` (at least one entry) with `dictionary` tokens, started at `seed`.
  public init(
    seed: UInt64, corpus: [[UInt8]], dictionary: [[UInt8]] = Mutator.jsonTokens, maximumLength: Int = 4096
  ) {
    precondition(!corpus.isEmpty, "a mutator needs a corpus")
    random = SeededGenerator(seed: seed)
    self.corpus = corpus
    self.dictionary = dictionary.isEmpty ? [[0]] : dictionary
    self.maximumLength = maximumLength
  }

  /// Tokens that exercise JSON lexers: structure, escapes, edge-case numbers and literals, bytes that
  /// are not UTF-8.
  public static let jsonTokens: [[UInt8]] =
    [
      "{", "}", "[", "]", ":", ",", "\"", "\\", "\\u", "\\ud800", "\\udc00", "\\u0000", "\\n", "\\\"",
      "0", "-0", "1e999", "-1e-999", "1.5e308", "9223372036854775807", "9223372036854775808",
      "-9223372036854775809", "0.1", "1E2", "00", "01", ".5", "+1", "true", "false", "null", "nul",
      "NaN", "Infinity", "\"\"", "{}", "[]", "[[[[[[[[", "]]]]]]]]", "{\"a\":", "\"a\":1,\"a\":2",
      " ", "\t", "\r", "\n", "\u{2028}", "é", "😀",
    ].map { Array($0.utf8) } + [
      [0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0x00], [0x1B],
    ]

  /// Tokens that exercise YAML parsers: indicators, anchors, tags, flow collections, indentation.
  public static let yamlTokens: [[UInt8]] =
    [
      ":", ": ", "- ", "? ", "{", "}", "[", "]", ",", "#", "&a ", "*a", "!!str ", "!!int ", "|", ">", "'",
      "\"",
      "\n", "\n  ", "\n    ", "\t", "---", "...", "%YAML 1.2", "~", "null", "true", "0x1F", "1e999", ".inf",
      "<<: *a", "@", "`", "\\u0000", "é", "\u{FEFF}",
    ].map { Array($0.utf8) } + [[0xFF], [0x00]]

  /// The next input.
  public mutating func next() -> [UInt8] {
    var input = corpus[below(corpus.count)]
    for _ in 0...below(4) { mutate(&input) }
    if input.count > maximumLength { input.removeLast(input.count - maximumLength) }
    return input
  }

  private mutating func mutate(_ input: inout [UInt8]) {
    let position = below(input.count + 1)
    switch below(8) {
    case 0 where !input.isEmpty:  // flip a bit
      let at = below(input.count)
      input[at] ^= UInt8(1) << UInt8(below(8))
    case 1:  // insert a random byte
      input.insert(UInt8(truncatingIfNeeded: random.next()), at: position)
    case 2 where !input.isEmpty:  // delete a range
      let end = min(input.count, position + 1 + below(16))
      input.removeSubrange(min(position, input.count - 1)..<end)
    case 3 where !input.isEmpty:  // duplicate a range
      let start = below(input.count)
      let end = min(input.count, start + 1 + below(64))
      input.insert(contentsOf: input[start..<end], at: position)
    case 4, 5:  // insert a dictionary token
      input.insert(contentsOf: dictionary[below(dictionary.count)], at: position)
    case 6 where !input.isEmpty:  // overwrite with a token
      let token = dictionary[below(dictionary.count)]
      let start = below(input.count)
      input.replaceSubrange(start..<min(input.count, start + token.count), with: token)
    default:  // splice part of another entry
      let other = corpus[below(corpus.count)]
      guard !other.isEmpty else { return }
      let start = below(other.count)
      let end = min(other.count, start + 1 + below(256))
      input.insert(contentsOf: other[start..<end], at: position)
    }
  }

  private mutating func below(_ bound: Int) -> Int { random.below(bound) }
}
