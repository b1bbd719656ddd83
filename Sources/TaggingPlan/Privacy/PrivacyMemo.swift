/// What the privacy check found in texts it scanned before, so a text that recurs (a screen name,
/// a schema URI, an app id, the same identifier in every record) is scanned once per validation.
///
/// A result is kept per text, the context of the key naming it and the kinds looked for; only
/// texts a detector could match are remembered (the others are ruled out by one cheap pass and
/// never reach the memo). Bounded like ``PatternMemo``: by count and by the bytes of text held.
struct PrivacyMemo: Sendable {
  private struct Key: Hashable {
    var text: String
    var context: PIIKeyContext
    var kinds: PIIKinds
  }

  /// Results kept at most; later texts are scanned without being remembered.
  static let limit = 65_536
  /// Bytes of remembered text at most (each result counts its text and 64 bytes of table).
  static let byteLimit = 4 << 20

  private var results: [Key: [PIIKind]] = [:]
  /// The bytes the remembered results hold, as ``byteLimit`` counts them.
  private(set) var bytes = 0
  /// The bytes this memo may hold (``byteLimit`` unless a test asks for less).
  let maximumBytes: Int

  /// An empty memo.
  init() { maximumBytes = Self.byteLimit }

  /// An empty memo holding at most `maximumBytes`.
  init(maximumBytes: Int) { self.maximumBytes = maximumBytes }

  /// How many results are remembered.
  var count: Int { results.count }

  /// The kinds found in `text` (named by `context`, looking for `kinds`), in the order they are
  /// reported, from memory when it was scanned before, else from `scan`.
  mutating func kinds(
    in text: String, context: PIIKeyContext, looking kinds: PIIKinds, scan: () -> [PIIKind]
  ) -> [PIIKind] {
    let key = Key(text: text, context: context, kinds: kinds)
    if let known = results[key] { return known }
    let found = scan()
    let size = text.utf8.count + 64
    if results.count < Self.limit, bytes + size <= maximumBytes {
      results[key] = found
      bytes += size
    }
    return found
  }
}
