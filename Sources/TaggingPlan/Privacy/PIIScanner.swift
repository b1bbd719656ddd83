/// Finds personal data in a text: pure byte scanners, one pass each, linear in the text (no
/// regular expression, no backtracking), run only when a first pass over the bytes says their
/// trigger is there (an `@`, enough digits, two colons…).
public enum PIIScanner {
  /// The matches of `kinds` in `text` (named by `key`), in text order, overlaps merged.
  public static func scan(_ text: String, key: PIIKeyContext = PIIKeyContext(), kinds: PIIKinds = .all)
    -> [PIIMatch]
  {
    var text = text
    var matches: [PIIMatch] = []
    text.withUTF8 { bytes in
      var steps = 0
      scan(bytes, key: key, kinds: kinds, into: &matches, steps: &steps)
    }
    return matches
  }

  /// Appends the matches of `kinds` in `text` (named by `key`) to `matches`, in text order with
  /// overlaps merged, adding to `steps` the bytes the detectors examined (the work done, linear in
  /// the text).
  public static func scan(
    _ text: UnsafeBufferPointer<UInt8>, key: PIIKeyContext, kinds: PIIKinds = .all,
    into matches: inout [PIIMatch],
    steps: inout Int
  ) {
    let summary = Summary(text)
    steps += text.count
    guard summary.mayHoldAny || key.phone else { return }
    var scan = PIIScan(text: text, key: key)
    let first = matches.count
    if kinds.contains(.token), summary.mayHoldToken { scan.findTokens() }
    if kinds.contains(.email), summary.at { scan.findEmails() }
    if kinds.contains(.advertisingID), summary.mayHoldUUID { scan.findAdvertisingIDs() }
    if summary.digits >= 4 || key.phone { scan.findNumberRuns(kinds: kinds) }
    if kinds.contains(.ip), summary.colons >= 2 { scan.findIPv6() }
    if kinds.contains(.geo), summary.digits >= 10, summary.dots >= 2 { scan.findGeoPairs() }
    steps += scan.steps
    guard !scan.found.isEmpty else { return }
    scan.found.sort { $0.range.lowerBound < $1.range.lowerBound }
    for match in scan.found {
      if matches.count > first, let last = matches.last, match.range.lowerBound < last.range.upperBound {
        matches[matches.count - 1].range =
          last.range.lowerBound..<max(last.range.upperBound, match.range.upperBound)
      } else {
        matches.append(match)
      }
    }
  }

  /// What one pass over the bytes tells: which detectors can find anything.
  struct Summary {
    var at = false
    var digits = 0
    var colons = 0
    var dots = 0
    var dashes = 0
    var letters = 0
    /// `b`/`B` (Bearer, Basic) or `e` (JWT's `eyJ`).
    var tokenLetters = false

    init(_ text: UnsafeBufferPointer<UInt8>) {
      for byte in text {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digits += 1
        case UInt8(ascii: "@"): at = true
        case UInt8(ascii: ":"): colons += 1
        case UInt8(ascii: "."): dots += 1
        case UInt8(ascii: "-"): dashes += 1
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "e"):
          tokenLetters = true
          letters += 1
        default: if PIIBytes.isAlpha(byte) { letters += 1 }
        }
      }
    }

    var mayHoldToken: Bool { tokenLetters && letters + digits >= 16 }
    var mayHoldUUID: Bool { dashes >= 4 && digits + letters >= 32 }
    var mayHoldAny: Bool { at || digits >= 4 || colons >= 2 || mayHoldToken }
  }
}

/// One text being scanned: its bytes, its key's context, what was found and the work done.
struct PIIScan {
  let text: UnsafeBufferPointer<UInt8>
  let key: PIIKeyContext
  var found: [PIIMatch] = []
  /// Bytes examined by the detectors (each detector's loops count theirs).
  var steps = 0

  init(text: UnsafeBufferPointer<UInt8>, key: PIIKeyContext) {
    self.text = text
    self.key = key
  }

  var count: Int { text.count }

  /// The byte at `index`, or 0 past either end.
  @inline(__always) func at(_ index: Int) -> UInt8 { index >= 0 && index < text.count ? text[index] : 0 }

  mutating func add(_ kind: PIIKind, _ range: Range<Int>) { found.append(PIIMatch(kind: kind, range: range)) }
}
