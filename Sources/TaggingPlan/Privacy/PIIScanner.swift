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
    scan(text, summary: summary, key: key, kinds: kinds, into: &matches, steps: &steps)
  }

  /// ``scan(_:key:kinds:into:steps:)`` with the text's ``Summary`` already made (one summary serves
  /// several passes over the same text).
  static func scan(
    _ text: UnsafeBufferPointer<UInt8>, summary: Summary, key: PIIKeyContext, kinds: PIIKinds,
    into matches: inout [PIIMatch], steps: inout Int
  ) {
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
    var spaces = 0
    /// `b`/`B` (Bearer, Basic) or `e` (JWT's `eyJ`).
    var tokenLetters = false

    /// Each byte's count in one lane of 8 bits (lanes, low to high: digit, `@`, `:`, `.`, `-`,
    /// `b`/`B`/`e`, other letter, space; 0 for any other byte): a run of up to 255 bytes is
    /// summed into one word with no branch, then the lanes are added to the counts.
    private static let lanes: [UInt64] = (0...255).map { value in
      let byte = UInt8(value)
      let lane: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): lane = 0
      case UInt8(ascii: "@"): lane = 1
      case UInt8(ascii: ":"): lane = 2
      case UInt8(ascii: "."): lane = 3
      case UInt8(ascii: "-"): lane = 4
      case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "e"): lane = 5
      case UInt8(ascii: " "): lane = 7
      default:
        guard PIIBytes.isAlpha(byte) else { return 0 }
        lane = 6
      }
      return 1 << (8 * lane)
    }

    init(_ text: UnsafeBufferPointer<UInt8>) {
      Self.lanes.withUnsafeBufferPointer { lanes in
        var index = 0
        while index < text.count {
          let end = Swift.min(index + 255, text.count)
          var packed: UInt64 = 0
          while index < end {
            packed &+= lanes[Int(text[index])]
            index += 1
          }
          add(packed)
        }
      }
    }

    /// Adds the lanes of `packed` (see ``lanes``) to the counts.
    private mutating func add(_ packed: UInt64) {
      func lane(_ number: UInt64) -> Int { Int(truncatingIfNeeded: (packed >> (8 * number)) & 0xFF) }
      digits += lane(0)
      at = at || lane(1) > 0
      colons += lane(2)
      dots += lane(3)
      dashes += lane(4)
      tokenLetters = tokenLetters || lane(5) > 0
      letters += lane(5) + lane(6)
      spaces += lane(7)
    }

    /// A JWT has two dots (`eyJ….eyJ….…`); a `Bearer`/`Basic` credential follows a space.
    var mayHoldToken: Bool { tokenLetters && letters + digits >= 16 && (dots >= 2 || spaces >= 1) }
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
