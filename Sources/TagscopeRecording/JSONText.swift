import AnalyticsHub

/// The one JSON writer's text forms, for everything that writes JSON outside the recording's hot
/// path: replies to SDKs, reports, benchmark output. Strings are escaped per RFC 8259 by
/// ``JSONWriter``, numbers in their shortest exact form, non-finite numbers as `null`.
public enum JSONText {
  /// `value` as compact JSON.
  public static func value(_ value: PropertyValue) -> String {
    JSONWriter.string(capacity: 256) { $0.value(value) }
  }

  /// `properties` as a compact JSON object.
  public static func string(_ properties: Properties) -> String { value(.object(properties)) }

  /// `text` as a JSON string literal.
  public static func quoted(_ text: String) -> String {
    JSONWriter.string(capacity: text.utf8.count + 2) { $0.string(text) }
  }

  /// `text` as a JSON string literal, also writing the scalars `escaping` selects as `\u` escapes
  /// (reports keep line separators out of embedded scripts this way).
  public static func quoted(_ text: String, escaping: (Unicode.Scalar) -> Bool) -> String {
    JSONWriter.string(capacity: text.utf8.count + 2) { $0.string(text, escaping: escaping) }
  }
}
