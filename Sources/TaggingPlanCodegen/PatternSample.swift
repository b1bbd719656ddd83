import TaggingPlan

/// A short string a simple `pattern` matches (`^p[0-9]+$` → `p0`), for sample values: the first
/// alternative, the first character of each class, each quantifier's minimum (one for `+`). The
/// sample is checked against the pattern; `nil` when the pattern is beyond this (or unmatched).
enum PatternSample {
  static func sample(_ pattern: PlanPattern) -> String? {
    var scalars = Array(pattern.source.unicodeScalars)[...]
    guard let text = alternatives(&scalars), pattern.matches(text) else { return nil }
    return text
  }

  /// The first alternative of a sequence, up to `)` or the end.
  private static func alternatives(_ input: inout ArraySlice<Unicode.Scalar>) -> String? {
    var first: String?
    var current = ""
    while let scalar = input.first, scalar != ")" {
      if scalar == "|" {
        input.removeFirst()
        if first == nil { first = current }
        current = ""
        continue
      }
      guard let atom = atom(&input) else { return nil }
      let count = quantifier(&input)
      guard let count else { return nil }
      current += String(repeating: atom, count: count)
    }
    return first ?? current
  }

  /// One atom's sample text (`""` for anchors).
  private static func atom(_ input: inout ArraySlice<Unicode.Scalar>) -> String? {
    let scalar = input.removeFirst()
    switch scalar {
    case "^", "$": return ""
    case ".": return "a"
    case "\\":
      guard let escaped = input.popFirst() else { return nil }
      switch escaped {
      case "d": return "0"
      case "w": return "a"
      case "s": return " "
      case "D", "W", "S", "b", "B":
        return escaped == "D" || escaped == "W" ? "-" : (escaped == "S" ? "a" : "")
      default: return String(escaped)
      }
    case "[":
      var negated = false
      if input.first == "^" {
        negated = true
        input.removeFirst()
      }
      var first: Unicode.Scalar?
      var members: [Unicode.Scalar] = []
      while let next = input.popFirst(), next != "]" {
        var member = next
        if next == "\\", let escaped = input.popFirst() {
          member = escaped == "d" ? "0" : (escaped == "w" ? "a" : escaped)
        }
        if first == nil { first = member }
        members.append(member)
        if input.first == "-", input.dropFirst().first != "]" {
          input.removeFirst()
          _ = input.popFirst()
        }
      }
      if negated {
        for candidate in ["a", "0", "-", "Z"] as [Unicode.Scalar] where !members.contains(candidate) {
          return String(candidate)
        }
        return nil
      }
      return first.map(String.init)
    case "(":
      if input.first == "?" {
        input.removeFirst()
        guard input.popFirst() == ":" else { return nil }
      }
      let inner = alternatives(&input)
      guard input.popFirst() == ")" else { return nil }
      return inner
    case "*", "+", "?", "{", ")": return nil
    default: return String(scalar)
    }
  }

  /// How many times the atom repeats: a quantifier's minimum (one for `+`), else one.
  private static func quantifier(_ input: inout ArraySlice<Unicode.Scalar>) -> Int? {
    guard let scalar = input.first else { return 1 }
    var count = 1
    switch scalar {
    case "*", "?":
      input.removeFirst()
      count = 0
    case "+":
      input.removeFirst()
    case "{":
      input.removeFirst()
      var digits = ""
      var inMinimum = true
      while let next = input.popFirst(), next != "}" {
        if next == "," { inMinimum = false }
        if inMinimum { digits.unicodeScalars.append(next) }
      }
      guard let number = Int(digits) else { return nil }
      count = min(number, 100)
    default:
      return 1
    }
    if input.first == "?" || input.first == "+" { input.removeFirst() }
    return count
  }
}
