/// Plan names (`play_podcast`, `Order Completed`, `42_--terrible==event`) made into valid Swift
/// identifiers: ASCII words joined in camel case, a leading digit prefixed, keywords escaped.
enum SwiftIdentifier {
  /// `lowerCamelCase` for cases, properties and parameters; `UpperCamelCase` for types.
  enum Style {
    case lower
    case upper
  }

  /// Swift's reserved words: backticked where they are names (`default`).
  static let keywords: Set<String> = [
    "associatedtype", "borrowing", "class", "consuming", "deinit", "enum", "extension", "fileprivate",
    "func", "import", "init", "inout", "internal", "let", "nonisolated", "open", "operator", "private",
    "precedencegroup", "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias",
    "var", "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "Any", "await",
    "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "_", "some", "any", "async",
    "package", "each", "macro", "sending",
  ]

  /// Words that are not valid even backticked in some of the places generated code puts names,
  /// or that would shadow what generated code uses (`Type`, `Protocol`, `Properties`…): suffixed.
  static let suffixed: Set<String> = [
    "self", "Self", "init", "deinit", "subscript", "_", "Type", "Protocol", "Any", "Properties",
    "PropertyValue", "String", "Int", "Double", "Bool", "Date", "UUID", "Optional", "Array",
  ]

  /// The words of `raw`: runs of ASCII letters and digits, split at lowercase-to-uppercase humps.
  static func words(_ raw: String) -> [String] {
    var words: [String] = []
    var current = ""
    var previousLower = false
    for scalar in raw.unicodeScalars {
      let isLetter = (scalar >= "a" && scalar <= "z") || (scalar >= "A" && scalar <= "Z")
      let isDigit = scalar >= "0" && scalar <= "9"
      guard isLetter || isDigit else {
        if !current.isEmpty { words.append(current) }
        current = ""
        previousLower = false
        continue
      }
      let isUpper = scalar >= "A" && scalar <= "Z"
      if isUpper, previousLower, !current.isEmpty {
        words.append(current)
        current = ""
      }
      current.unicodeScalars.append(scalar)
      previousLower = !isUpper
    }
    if !current.isEmpty { words.append(current) }
    return words
  }

  /// The bare identifier for `raw` in `style` (no escaping): `playPodcast`, `OrderCompleted`,
  /// `n42Terrible` for a leading digit, `unnamed` when nothing is left.
  static func bare(_ raw: String, style: Style) -> String {
    let parts = words(raw)
    guard !parts.isEmpty else { return style == .lower ? "unnamed" : "Unnamed" }
    var text = ""
    for (index, word) in parts.enumerated() {
      let allUpper = word.uppercased() == word
      // An acronym word (`ID`, `URL`) keeps its case inside, lowercased whole at the start.
      let body = allUpper && word.count > 1 ? word.lowercased() : word
      if index == 0 && style == .lower {
        text += lowerFirst(body)
      } else {
        text += upperFirst(body)
      }
    }
    if let first = text.unicodeScalars.first, first >= "0" && first <= "9" {
      text = (style == .lower ? "n" : "N") + text
    }
    return text
  }

  /// `name` as written in source: backticked when it is a keyword, suffixed with `_` when even
  /// that is not enough.
  static func spelled(_ name: String) -> String {
    if suffixed.contains(name) { return name + "_" }
    return keywords.contains(name) ? "`\(name)`" : name
  }

  /// `name` (as ``spelled(_:)`` wrote it) as an argument label in a call: Swift takes every
  /// keyword there but `inout` unescaped, and warns about the backticks of the others.
  static func argumentLabel(_ name: String) -> String {
    let bare = NameScope.unescaped(name)
    return bare == "inout" ? name : bare
  }

  private static func upperFirst(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  private static func lowerFirst(_ word: String) -> String {
    word.prefix(1).lowercased() + word.dropFirst()
  }
}

/// Hands out identifiers unique within one scope, deterministically: the first name asking for an
/// identifier gets it, later ones get `2`, `3`… appended in the order they ask.
struct NameScope {
  private var taken: Set<String>

  /// A scope where `reserved` are already taken (members the generated type declares itself).
  init(reserved: Set<String> = []) { taken = reserved }

  /// A unique identifier for `raw`, in `style`, as written in source (escaped when needed).
  mutating func claim(_ raw: String, style: SwiftIdentifier.Style) -> String {
    claimBare(SwiftIdentifier.bare(raw, style: style))
  }

  /// A unique identifier starting from an already valid `base`.
  mutating func claimBare(_ base: String) -> String {
    var candidate = SwiftIdentifier.spelled(base)
    var number = 2
    while taken.contains(Self.unescaped(candidate)) {
      candidate = SwiftIdentifier.spelled(base + String(number))
      number += 1
    }
    taken.insert(Self.unescaped(candidate))
    return candidate
  }

  /// `default` for `` `default` ``.
  static func unescaped(_ name: String) -> String {
    name.hasPrefix("`") ? String(name.dropFirst().dropLast()) : name
  }
}
