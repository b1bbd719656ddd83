import AnalyticsHub

extension PropertyRule {
  /// `object` with each text member read as the value it stands for, where this object rule's
  /// property of that name accepts a number, integer or boolean but not text, and the text is
  /// that value's canonical form: `true`/`false`, an integer's decimal digits (`12`, `-3`), a
  /// JSON number (`12.5`, `1.0E20`). Any other text stays text, so `abc` for a number is still a
  /// wrong type, and a text property's `"1"` stays `"1"`. For a catalogue whose values arrive
  /// as text (``CallCatalogue/valuesAsText``).
  func readingText(_ object: Properties) -> Properties {
    guard let rules = properties, !rules.isEmpty else { return object }
    let byName = Dictionary(rules.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
    return Properties(
      object.map { member -> (String, PropertyValue) in
        guard case .string(let text) = member.value, let typed = byName[member.key]?.typedValue(of: text)
        else { return (member.key, member.value) }
        return (member.key, typed)
      })
  }

  /// The boolean or number `text` is the canonical form of, when `types` wants one and not text.
  private func typedValue(of text: String) -> PropertyValue? {
    guard !types.isEmpty, !types.contains(.string) else { return nil }
    if types.contains(.boolean), text == "true" || text == "false" { return .bool(text == "true") }
    guard types.contains(.number) || types.contains(.integer), Self.isJSONNumber(text) else { return nil }
    if let integer = Int(text), String(integer) == text { return .int(integer) }
    guard let number = Double(text), number.isFinite else { return nil }
    return .double(number)
  }

  /// Whether `text` is a number as JSON writes one: `-`?, digits without a leading zero, an
  /// optional fraction and exponent.
  static func isJSONNumber(_ text: String) -> Bool {
    var bytes = Substring(text).utf8[...]
    if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
    let digit: (UInt8) -> Bool = { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    let whole = bytes.prefix(while: digit)
    guard !whole.isEmpty, whole.count == 1 || whole.first != UInt8(ascii: "0") else { return false }
    bytes = bytes.dropFirst(whole.count)
    if bytes.first == UInt8(ascii: ".") {
      let fraction = bytes.dropFirst().prefix(while: digit)
      guard !fraction.isEmpty else { return false }
      bytes = bytes.dropFirst(1 + fraction.count)
    }
    if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
      bytes = bytes.dropFirst()
      if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
      let exponent = bytes.prefix(while: digit)
      guard !exponent.isEmpty else { return false }
      bytes = bytes.dropFirst(exponent.count)
    }
    return bytes.isEmpty
  }
}
