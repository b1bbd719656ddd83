import AnalyticsHub
import Foundation
import TagscopeBasics
import TagscopeRecording

/// The time an SDK says a call happened, read from the field that carries it. A time that is sent
/// but does not read — not a number, or outside what a recording holds (years 1–9999: milliseconds
/// where seconds are meant, say) — is not dropped without a word: the record takes the receive
/// time, and a violation (`<provider>.sent-time`, degraded) names the field and what it held.
/// A field absent or `null` is no time and no problem.
enum SentTime {
  /// What a number in the field counts since 1970.
  enum Unit: String {
    case seconds, milliseconds, microseconds
    /// Seconds, or milliseconds past 10¹¹ (a date in 5138 as seconds, 1973 as milliseconds): what
    /// Mixpanel's ingestion accepts.
    case secondsOrMilliseconds = "seconds or milliseconds"

    /// `number` of this unit in seconds.
    func seconds(_ number: Double) -> Double {
      switch self {
      case .seconds: number
      case .milliseconds: number / 1000
      case .microseconds: number / 1_000_000
      case .secondsOrMilliseconds: number > 100_000_000_000 ? number / 1000 : number
      }
    }
  }

  /// How the field holds its number: as a JSON number only, or also as its digits (a query
  /// string's value, an SDK that writes the number as text).
  enum Form {
    case number, numberOrText
  }

  /// Whether `value` is a time sent: present and not `null`.
  static func sent(_ value: PropertyValue?) -> Bool {
    value != nil && value != .null
  }

  /// The date `value` (a number of `unit` since 1970) stands for; when it is sent but does not
  /// read, `nil` with a violation of `provider`'s naming `field` appended to `violations`.
  static func read(
    _ value: PropertyValue?, _ unit: Unit, form: Form = .number, field: String, provider: String,
    violations: inout [RuleViolation]
  ) -> Date? {
    guard let value, sent(value) else { return nil }
    let number: Double?
    switch (value, form) {
    case (.string(let text), .numberOrText): number = Payload.number(text)
    default: number = value.doubleValue
    }
    if let date = number.flatMap({ Payload.date(seconds: unit.seconds($0)) }) { return date }
    violations.append(unread(value, unit, field: field, provider: provider))
    return nil
  }

  /// The violation of `value`, sent in `field` as a number of `unit`, that is no time.
  static func unread(_ value: PropertyValue, _ unit: Unit, field: String, provider: String) -> RuleViolation {
    violation(
      value, field: field, provider: provider,
      expected: "a time in \(unit.rawValue) since 1970 within years 1–9999")
  }

  /// The date of `value`, an ISO 8601 timestamp as text; when it is sent but does not read, `nil`
  /// with a violation appended, as ``read(_:_:form:field:provider:violations:)``.
  static func iso8601(
    _ value: PropertyValue?, field: String, provider: String, violations: inout [RuleViolation]
  ) -> Date? {
    guard let value, sent(value) else { return nil }
    if let date = Payload.string(value).flatMap(ISO8601Timestamp.date(from:)) { return date }
    violations.append(
      violation(value, field: field, provider: provider, expected: "an ISO 8601 time within years 1–9999"))
    return nil
  }

  /// The violation of a time sent in `field` that does not read as `expected`.
  static func violation(_ value: PropertyValue, field: String, provider: String, expected: String)
    -> RuleViolation
  {
    RuleViolation(
      rule: "\(provider).sent-time",
      message:
        "\(field) = \(Payload.excerpt(JSONText.value(value))) is not \(expected): recorded at the time it was received.",
      consequence: .degraded)
  }
}
