import AnalyticsHub

/// Masks the personal data the detectors find in a value a report quotes (a message's
/// `is "…"`, a JSON report's `actual`), the way a `personal-data` finding shows it: the kind and
/// the length, never the characters (`"<email masked, 20 characters>"`). The recording itself
/// is not changed (``Redactor`` makes a redacted copy).
public enum PIIMask {
  /// `value` with every personal datum found in its strings (and integers that are card or
  /// phone numbers) masked; `key` names the value (`idfa`: a UUID there is an advertising id).
  public static func value(_ value: PropertyValue, key: String? = nil) -> PropertyValue {
    switch value {
    case .string(let text):
      return masked(text, key: key).map(PropertyValue.string) ?? value
    case .int, .largeInteger:
      return masked(value.displayText, key: key, kinds: .numbers).map(PropertyValue.string) ?? value
    case .array(let values):
      return .array(values.map { self.value($0, key: key) })
    case .object(let properties):
      return .object(self.properties(properties))
    case .double, .bool, .date, .null:
      return value
    }
  }

  /// `properties` with each value masked as ``value(_:key:)`` under its own key.
  public static func properties(_ properties: Properties) -> Properties {
    Properties(properties.map { ($0.key, value($0.value, key: $0.key)) })
  }

  /// `text` with each match replaced by `<kind masked, N characters>`, or nil when nothing is
  /// found.
  public static func masked(_ text: String, key: String? = nil, kinds: PIIKinds = .all) -> String? {
    let context = key.map { PIIKeyContext(key: $0) } ?? PIIKeyContext()
    let matches = PIIScanner.scan(text, key: context, kinds: kinds)
    guard !matches.isEmpty else { return nil }
    let bytes = Array(text.utf8)
    var out: [UInt8] = []
    out.reserveCapacity(bytes.count)
    var position = 0
    for match in matches {
      out.append(contentsOf: bytes[position..<match.range.lowerBound])
      let length = String(decoding: bytes[match.range], as: UTF8.self).count
      out.append(contentsOf: "<\(match.kind.rawValue) masked, \(length) characters>".utf8)
      position = match.range.upperBound
    }
    out.append(contentsOf: bytes[position...])
    return String(decoding: out, as: UTF8.self)
  }
}
