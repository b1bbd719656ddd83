import AnalyticsHub

/// Reads the parameter blocks Firebase Analytics prints, into typed parameters:
///
/// - iOS, a dictionary description: `{ key (_short) = value; … }` over one or more lines, with
///   `"quoted strings"`, nested `{ … }` dictionaries and `( … , … )` arrays (ecommerce `items`);
/// - Android, a bundle: `Bundle[{key(_short)=value, …}]`, with nested `Bundle[{…}]` and
///   `[Bundle[{…}], …]` arrays.
///
/// Unquoted values that read as numbers become numbers (integers when they have no fraction or
/// exponent and fit 64 bits), `null` (Android) becomes null, anything else a string; on iOS a
/// quoted decimal number (`"12.5"`, how a dictionary description prints an NSNumber double) is a
/// double, other quoted text a string. Work is linear
/// in the text; nesting deeper than ``depthLimit`` is refused.
struct FirebaseLogValueReader {
  private let bytes: [UInt8]
  private var position = 0
  private var depth = 0

  /// The deepest nesting read.
  static let depthLimit = 32

  struct Failure: Error {
    var message: String
  }

  init(_ text: String) { bytes = Array(text.utf8) }

  /// The iOS dictionary at the start of the text; nothing but spaces may follow it.
  static func iOSParameters(_ text: String) throws(Failure) -> [FirebaseLogParameter] {
    var reader = FirebaseLogValueReader(text)
    let parameters = try reader.dictionary()
    try reader.expectEnd()
    return parameters
  }

  /// The Android bundle at the start of the text; nothing but spaces may follow it.
  static func androidParameters(_ text: String) throws(Failure) -> [FirebaseLogParameter] {
    var reader = FirebaseLogValueReader(text)
    let parameters = try reader.bundle()
    try reader.expectEnd()
    return parameters
  }

  /// `text` typed as an unquoted value: an integer, a decimal number, `null`, or the string.
  static func scalar(_ text: String) -> PropertyValue {
    if text == "null" { return .null }
    if let number = Int(text) { return .int(number) }
    if text.contains(where: { $0 == "." || $0 == "e" || $0 == "E" }), let number = Payload.number(text) {
      return .double(number)
    }
    return .string(text)
  }

  /// A printed name with its short name: `ga_event_origin (_o)`, `user_engagement(_e)`, `value`.
  /// A short name printed alone (`_o`, as the 2017 SDK did; the app's names cannot start with
  /// `_`) is the SDK's too, named by `publicNames` when they know it (``FirebaseShortNames``), so
  /// every wording of an internal name reads the same.
  static func splitName(_ text: Substring, publicNames: [String: String] = FirebaseShortNames.parameters)
    -> (name: String, short: String?)
  {
    let trimmed = trimSpaces(text)
    let utf8 = trimmed.utf8
    if utf8.first == UInt8(ascii: "_"), utf8.count > 1, utf8.last != UInt8(ascii: ")") {
      let short = String(trimmed)
      return (publicNames[short] ?? short, short)
    }
    guard trimmed.hasSuffix(")"), let open = trimmed.lastIndex(of: "("),
      trimmed[trimmed.index(after: open)...].hasPrefix("_")
    else { return (String(trimmed), nil) }
    let short = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
    let name = trimSpaces(trimmed[..<open])
    return (name.isEmpty ? short : String(name), short)
  }

  /// `text` without the spaces and tabs (any Unicode space but line breaks) at its ends; what
  /// `trimmingCharacters(in: .whitespaces)` does, without bridging each parameter's name.
  static func trimSpaces(_ text: Substring) -> Substring {
    // Most names are ASCII without spaces at either end: two byte checks, no Unicode lookup
    // (`Character.isWhitespace` per name was a twentieth of reading 100,000 parameters).
    if let first = text.utf8.first, let last = text.utf8.last, isPlainEnd(first), isPlainEnd(last) {
      return text
    }
    func isSpace(_ character: Character) -> Bool { character.isWhitespace && !character.isNewline }
    guard let first = text.firstIndex(where: { !isSpace($0) }),
      let last = text.lastIndex(where: { !isSpace($0) })
    else { return text[text.endIndex...] }
    return text[first...last]
  }

  /// An ASCII byte that is neither a space nor a control (no trimming needed at that end).
  private static func isPlainEnd(_ byte: UInt8) -> Bool { byte > 0x20 && byte < 0x7F }

  // MARK: iOS

  private mutating func dictionary() throws(Failure) -> [FirebaseLogParameter] {
    try enter()
    defer { depth -= 1 }
    try expect(UInt8(ascii: "{"))
    var parameters: [FirebaseLogParameter] = []
    while true {
      skipSpace()
      guard let byte = peek() else { throw fail("the parameters block is not closed") }
      if byte == UInt8(ascii: "}") {
        position += 1
        return parameters
      }
      let key: (name: String, short: String?)
      if byte == UInt8(ascii: "\"") {
        // A dictionary description quotes keys holding `_`: `"_o"` is still a short name.
        let name = try quoted()
        key = name.hasPrefix("_") ? Self.splitName(name[...]) : (name, nil)
        skipSpace()
      } else {
        let start = position
        while let next = peek(), next != UInt8(ascii: "="), next != UInt8(ascii: ";"), next != 0x0A {
          position += 1
        }
        key = Self.splitName(Substring(text(start, position)))
        guard !key.name.isEmpty else { throw fail("a parameter has no name") }
      }
      guard peek() == UInt8(ascii: "=") else { throw fail("parameter \(key.name) has no '= value'") }
      position += 1
      skipSpace()
      let value = try iOSValue(terminators: [UInt8(ascii: ";")])
      skipSpace()
      guard peek() == UInt8(ascii: ";") else { throw fail("parameter \(key.name) does not end with ';'") }
      position += 1
      parameters.append(FirebaseLogParameter(name: key.name, shortName: key.short, value: value))
    }
  }

  private mutating func iOSValue(terminators: [UInt8]) throws(Failure) -> PropertyValue {
    switch peek() {
    case UInt8(ascii: "\"")?:
      // A dictionary description quotes NSNumber doubles (`price = "12.5"`) as it quotes
      // strings; integers it prints bare. A quoted decimal number is taken for a double.
      let text = try quoted()
      if text.contains("."), let number = Payload.number(text) { return .double(number) }
      return .string(text)
    case UInt8(ascii: "{")?:
      return .object(Properties(try dictionary().map { ($0.name, $0.value) }))
    case UInt8(ascii: "(")?: return .array(try iOSArray())
    default:
      let start = position
      while let next = peek(), !terminators.contains(next), next != 0x0A { position += 1 }
      let bare = String(Self.trimSpaces(text(start, position)[...]))
      guard !bare.isEmpty else { throw fail("a parameter has no value") }
      return Self.scalar(bare)
    }
  }

  private mutating func iOSArray() throws(Failure) -> [PropertyValue] {
    try enter()
    defer { depth -= 1 }
    try expect(UInt8(ascii: "("))
    var values: [PropertyValue] = []
    skipSpace()
    if peek() == UInt8(ascii: ")") {
      position += 1
      return values
    }
    while true {
      skipSpace()
      values.append(try iOSValue(terminators: [UInt8(ascii: ","), UInt8(ascii: ")")]))
      skipSpace()
      switch peek() {
      case UInt8(ascii: ",")?: position += 1
      case UInt8(ascii: ")")?:
        position += 1
        return values
      default: throw fail("an array is not closed with ')'")
      }
    }
  }

  /// A double-quoted string with backslash escapes (`\"`, `\\`, `\n`, `\t`, `\U00e9`).
  private mutating func quoted() throws(Failure) -> String {
    position += 1
    var result: [UInt8] = []
    while let byte = peek() {
      position += 1
      switch byte {
      case UInt8(ascii: "\""): return String(decoding: result, as: UTF8.self)
      case UInt8(ascii: "\\"):
        guard let escaped = peek() else { break }
        position += 1
        switch escaped {
        case UInt8(ascii: "n"): result.append(0x0A)
        case UInt8(ascii: "t"): result.append(0x09)
        case UInt8(ascii: "U"), UInt8(ascii: "u"):
          let end = min(position + 4, bytes.count)
          if let code = UInt32(text(position, end), radix: 16), let scalar = Unicode.Scalar(code) {
            result += Array(String(scalar).utf8)
            position = end
          } else {
            result.append(escaped)
          }
        default: result.append(escaped)
        }
      default: result.append(byte)
      }
    }
    throw fail("a quoted value is not closed")
  }

  // MARK: Android

  private static let bundleOpen = Array("Bundle[{".utf8)
  private static let bundleClose = Array("}]".utf8)
  private static let bundleListOpen = Array("[Bundle[{".utf8)
  private static let emptyList = Array("[]".utf8)
  private static let separator = Array(", ".utf8)

  private mutating func bundle() throws(Failure) -> [FirebaseLogParameter] {
    try enter()
    defer { depth -= 1 }
    guard starts(with: Self.bundleOpen) else { throw fail("the parameters are not a Bundle[{…}]") }
    position += Self.bundleOpen.count
    var parameters: [FirebaseLogParameter] = []
    if starts(with: Self.bundleClose) {
      position += 2
      return parameters
    }
    while true {
      let start = position
      while let next = peek(), next != UInt8(ascii: "="), next != UInt8(ascii: ","), next != UInt8(ascii: "}")
      {
        position += 1
      }
      let key = Self.splitName(Substring(text(start, position)))
      guard !key.name.isEmpty, peek() == UInt8(ascii: "=") else {
        throw fail("a bundle entry is not name=value")
      }
      position += 1
      let value = try androidValue(inArray: false)
      parameters.append(FirebaseLogParameter(name: key.name, shortName: key.short, value: value))
      if starts(with: Self.separator) {
        position += 2
      } else if starts(with: Self.bundleClose) {
        position += 2
        return parameters
      } else {
        throw fail("the bundle is not closed with '}]'")
      }
    }
  }

  private mutating func androidValue(inArray: Bool) throws(Failure) -> PropertyValue {
    if starts(with: Self.bundleOpen) {
      return .object(Properties(try bundle().map { ($0.name, $0.value) }))
    }
    if peek() == UInt8(ascii: "["),
      starts(with: Self.bundleListOpen, at: position) || starts(with: Self.emptyList)
    {
      try enter()
      defer { depth -= 1 }
      position += 1
      var values: [PropertyValue] = []
      if peek() == UInt8(ascii: "]") {
        position += 1
        return .array(values)
      }
      while true {
        values.append(try androidValue(inArray: true))
        if starts(with: Self.separator) {
          position += 2
        } else if peek() == UInt8(ascii: "]") {
          position += 1
          return .array(values)
        } else {
          throw fail("a list of bundles is not closed with ']'")
        }
      }
    }
    let start = position
    while position < bytes.count {
      if inArray, bytes[position] == UInt8(ascii: "]") || starts(with: Self.separator) { break }
      if !inArray,
        starts(with: Self.bundleClose) || (starts(with: Self.separator) && keyFollows(position + 2))
      {
        break
      }
      position += 1
    }
    return Self.scalar(text(start, position))
  }

  /// Whether a bundle key (`name=` or `name(_short)=`) starts at `index`: how a value that holds
  /// `", "` is told from the next entry.
  private func keyFollows(_ index: Int) -> Bool {
    var index = index
    guard index < bytes.count, Self.isNameStart(bytes[index]) else { return false }
    while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "(") {
      index += 1
      while index < bytes.count, Self.isNameByte(bytes[index]) { index += 1 }
      guard index < bytes.count, bytes[index] == UInt8(ascii: ")") else { return false }
      index += 1
    }
    return index < bytes.count && bytes[index] == UInt8(ascii: "=")
  }

  private static func isNameStart(_ byte: UInt8) -> Bool {
    (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_")
  }

  private static func isNameByte(_ byte: UInt8) -> Bool { isNameStart(byte) || (0x30...0x39).contains(byte) }

  // MARK: Cursor

  private func peek() -> UInt8? { position < bytes.count ? bytes[position] : nil }

  private func starts(with prefix: [UInt8]) -> Bool { starts(with: prefix, at: position) }

  private func starts(with prefix: [UInt8], at index: Int) -> Bool {
    guard index + prefix.count <= bytes.count else { return false }
    for offset in prefix.indices where bytes[index + offset] != prefix[offset] { return false }
    return true
  }

  private func text(_ start: Int, _ end: Int) -> String {
    String(decoding: bytes[start..<end], as: UTF8.self)
  }

  private mutating func skipSpace() {
    while let byte = peek(), byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { position += 1 }
  }

  private mutating func expect(_ byte: UInt8) throws(Failure) {
    guard peek() == byte else { throw fail("expected '\(Character(Unicode.Scalar(byte)))'") }
    position += 1
  }

  private mutating func expectEnd() throws(Failure) {
    skipSpace()
    guard position == bytes.count else { throw fail("unexpected text after the parameters") }
  }

  private mutating func enter() throws(Failure) {
    depth += 1
    guard depth <= Self.depthLimit else { throw fail("parameters nested deeper than \(Self.depthLimit)") }
  }

  private func fail(_ message: String) -> Failure { Failure(message: message) }
}
