/// Host names as RFC 1123 and IDNA2008 (RFC 5890-5893) define them: labels of letters, digits and
/// inner hyphens, or U-labels (their A-label `xn--…` form included) whose code points are letters,
/// digits and marks meeting IDNA2008's contextual and bidi rules. IDNA2008's derived tables are
/// approximated by Unicode general categories and script ranges.
enum HostName {
  private static let stops: Set<Unicode.Scalar> = [".", "\u{3002}", "\u{FF0E}", "\u{FF61}"]

  /// Whether `text` is a host name; `international` also takes U-labels and the ideographic full
  /// stops between labels.
  static func accepts(_ text: String, international: Bool) -> Bool {
    let scalars = Array(text.unicodeScalars)
    guard !scalars.isEmpty, international || scalars.allSatisfy(\.isASCII) else { return false }
    var labels: [[UInt32]] = []
    var length = -1
    for part in scalars.split(
      omittingEmptySubsequences: false, whereSeparator: { international && stops.contains($0) || $0 == "." })
    {
      let label = part.map(\.value)
      guard !label.isEmpty else { return false }
      if label.allSatisfy({ $0 < 0x80 }) {
        let bytes = label.map { UInt8($0) }
        guard isLDH(bytes) else { return false }
        length += bytes.count + 1
        guard bytes.count >= 4, bytes[2] == 45, bytes[3] == 45 else {
          labels.append(label)
          continue
        }
        let rest = Array(bytes[4...]).map { $0 | 0x20 }
        guard (bytes[0] | 0x20) == 120, (bytes[1] | 0x20) == 110, let decoded = Punycode.decode(rest),
          decoded.contains(where: { $0 >= 0x80 }), Punycode.encode(decoded) == rest, isULabel(decoded)
        else { return false }
        labels.append(decoded)
      } else {
        guard let encoded = Punycode.encode(label), encoded.count + 4 <= 63, isULabel(label) else {
          return false
        }
        length += encoded.count + 5
        labels.append(label)
      }
    }
    guard length <= 253 else { return false }
    if labels.contains(where: { $0.contains(where: { [.r, .al, .an].contains(bidi($0)) }) }) {
      return labels.allSatisfy(meetsBidiRule)
    }
    return true
  }

  /// Letters, digits and hyphens, 1 to 63, no hyphen first or last.
  private static func isLDH(_ label: [UInt8]) -> Bool {
    guard let first = label.first, let last = label.last, label.count <= 63, first != 45, last != 45 else {
      return false
    }
    return label.allSatisfy {
      ($0 >= 48 && $0 <= 57) || (($0 | 0x20) >= 97 && ($0 | 0x20) <= 122) || $0 == 45
    }
  }

  /// RFC 5891 §4.2 and RFC 5892: hyphens, a leading mark, and each code point PVALID or meeting
  /// its context rule.
  private static func isULabel(_ label: [UInt32]) -> Bool {
    guard let first = label.first, let last = label.last, first != 45, last != 45,
      !(label.count >= 4 && label[2] == 45 && label[3] == 45), !isMark(first)
    else { return false }
    for index in label.indices {
      let code = label[index]
      let previous = index > 0 ? label[index - 1] : nil
      let next = index + 1 < label.count ? label[index + 1] : nil
      switch code {
      case 0xDF, 0x3C2, 0x6FD, 0x6FE, 0xF0B, 0x3007, 0x2D:
        continue
      case 0x640, 0x7FA, 0x302E, 0x302F, 0x3031...0x3035, 0x303B:
        return false
      case 0xB7:
        guard previous == 0x6C, next == 0x6C else { return false }
      case 0x375:
        guard let next, isGreek(next) else { return false }
      case 0x5F3, 0x5F4:
        guard let previous, (0x590...0x5FF).contains(previous) else { return false }
      case 0x30FB:
        guard label.contains(where: { $0 != 0x30FB && isJapanese($0) }) else { return false }
      case 0x660...0x669:
        guard !label.contains(where: { (0x6F0...0x6F9).contains($0) }) else { return false }
      case 0x6F0...0x6F9:
        guard !label.contains(where: { (0x660...0x669).contains($0) }) else { return false }
      case 0x200D:
        guard let previous, isVirama(previous) else { return false }
      case 0x200C:
        guard let previous else { return false }
        if isVirama(previous) { continue }
        let before = label[..<index].last { !isMark($0) }
        let after = label[(index + 1)...].first { !isMark($0) }
        guard let before, let after, isJoining(before), isJoining(after) else { return false }
      default:
        guard let scalar = Unicode.Scalar(code) else { return false }
        switch scalar.properties.generalCategory {
        case .lowercaseLetter, .otherLetter, .modifierLetter, .nonspacingMark, .spacingMark, .decimalNumber:
          continue
        default:
          return false
        }
      }
    }
    return true
  }

  private static func isMark(_ code: UInt32) -> Bool {
    guard let scalar = Unicode.Scalar(code) else { return false }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .enclosingMark: return true
    default: return false
    }
  }

  private static func isVirama(_ code: UInt32) -> Bool {
    Unicode.Scalar(code)?.properties.canonicalCombiningClass == .virama
  }

  private static func isGreek(_ code: UInt32) -> Bool {
    (0x370...0x3FF).contains(code) || (0x1F00...0x1FFF).contains(code)
  }

  private static func isJapanese(_ code: UInt32) -> Bool {
    (0x3040...0x30FF).contains(code) || (0x31F0...0x31FF).contains(code) || (0x3400...0x4DBF).contains(code)
      || (0x4E00...0x9FFF).contains(code) || (0xF900...0xFAFF).contains(code)
      || (0x20000...0x3FFFF).contains(code)
      || code == 0x3005 || code == 0x3007
  }

  /// Arabic-script letters, which join on both sides (the ZWNJ rule's `L`/`D` and `R`/`D`).
  private static func isJoining(_ code: UInt32) -> Bool {
    (0x620...0x64A).contains(code) || (0x66E...0x6D3).contains(code) || (0x6FA...0x6FF).contains(code)
      || (0x710...0x74F).contains(code) || (0x750...0x77F).contains(code)
  }

  /// RFC 5893 bidi classes, by script range.
  enum Bidi { case l, r, al, an, en, nsm, other }

  private static func bidi(_ code: UInt32) -> Bidi {
    if isMark(code) { return .nsm }
    switch code {
    case 0x30...0x39, 0x6F0...0x6F9: return .en
    case 0x660...0x669, 0x66B, 0x66C: return .an
    case 0x590...0x5FF, 0x7C0...0x85F, 0xFB1D...0xFB4F: return .r
    case 0x600...0x7BF, 0x860...0x8FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return .al
    case 0x2D, 0x200C, 0x200D: return .other
    default:
      guard let scalar = Unicode.Scalar(code) else { return .other }
      return scalar.properties.isAlphabetic || scalar.properties.numericType != nil ? .l : .other
    }
  }

  /// RFC 5893 §2: a label of a domain with right-to-left characters.
  private static func meetsBidiRule(_ label: [UInt32]) -> Bool {
    let classes = label.map(bidi)
    guard let first = classes.first, let last = classes.last(where: { $0 != .nsm }) else { return false }
    switch first {
    case .r, .al:
      return !classes.contains(.l) && [.r, .al, .en, .an].contains(last)
        && !(classes.contains(.en) && classes.contains(.an))
    case .l:
      return !classes.contains(where: { [.r, .al, .an].contains($0) }) && (last == .l || last == .en)
    default:
      return false
    }
  }
}
