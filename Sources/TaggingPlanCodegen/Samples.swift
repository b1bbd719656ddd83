import AnalyticsHub
import TaggingPlan

/// Swift expressions of values that meet a property's constraints, for the tour's traffic: each
/// candidate is checked against the rule, and the first that passes is used.
enum Samples {
  static func expression(_ field: Field) -> String {
    expression(field.shape, rule: field.rule)
  }

  static func expression(_ shape: ValueShape, rule: PropertyRule?) -> String {
    switch shape {
    case .string: return SwiftLiteral.string(string(rule))
    case .int:
      if let value = rule?.allowed?.first?.intValue { return String(value) }
      return String(Int(first(numbers(rule), rule: rule, wrap: { .int(Int($0)) }) ?? 0))
    case .double:
      if let value = rule?.allowed?.first?.doubleValue { return SwiftLiteral.double(value) }
      return SwiftLiteral.double(first(numbers(rule), rule: rule, wrap: { .double($0) }) ?? 0)
    case .bool: return "true"
    case .date: return "Date(timeIntervalSince1970: 0)"
    case .uuid: return "UUID(uuidString: \"00000000-0000-4000-8000-000000000000\")!"
    case .stringEnum(let declaration): return "." + declaration.cases[0].name
    case .array(let element): return "[\(expression(element, rule: rule?.items))]"
    case .object(let declaration):
      let arguments = declaration.fields.filter { $0.constant == nil }.map {
        "\($0.argumentLabel): \(expression($0))"
      }
      return "\(declaration.name)(\(arguments.joined(separator: ", ")))"
    case .anyObject: return "[:]"
    case .any: return SwiftLiteral.value(value(rule))
    }
  }

  /// A value for a rule of no single Swift type.
  static func value(_ rule: PropertyRule?) -> PropertyValue {
    guard let rule else { return .string("x") }
    if let constant = rule.constant { return constant }
    if let allowed = rule.allowed, let first = allowed.first { return first }
    switch rule.types.first(where: { $0 != .null }) ?? (rule.types.isEmpty ? .string : .null) {
    case .string: return .string(string(rule))
    case .integer: return .int(0)
    case .number: return .double(0)
    case .boolean: return .bool(true)
    case .array: return .array([])
    case .object: return .object([:])
    case .null: return .null
    }
  }

  private static func numbers(_ rule: PropertyRule?) -> [Double] {
    var candidates: [Double] = [0, 1]
    if let low = rule?.minimum { candidates.insert(low.rounded(.up), at: 0) }
    if let high = rule?.maximum { candidates.append(high.rounded(.down)) }
    return candidates
  }

  private static func first(_ candidates: [Double], rule: PropertyRule?, wrap: (Double) -> PropertyValue)
    -> Double?
  {
    guard let rule else { return candidates.first }
    return candidates.first { rule.problem(with: wrap($0)) == nil } ?? candidates.first
  }

  /// A string the rule accepts, when one of the candidates is.
  static func string(_ rule: PropertyRule?) -> String {
    guard let rule else { return "x" }
    var candidates: [String] = []
    if let pattern = rule.pattern, let sample = PatternSample.sample(pattern) {
      candidates.append(sample)
      if let low = rule.minLength, sample.unicodeScalars.count < low {
        candidates.append(sample + String(repeating: sample.isEmpty ? "x" : String(sample.last!), count: low))
      }
    }
    if let format = rule.format { candidates.append(formatSample(format)) }
    let length = max(rule.minLength ?? 1, 1)
    candidates.append(String(repeating: "x", count: min(length, rule.maxLength ?? length)))
    return candidates.first { rule.problem(with: .string($0)) == nil } ?? candidates[0]
  }

  private static func formatSample(_ format: ValueFormat) -> String {
    switch format {
    case .dateTime: return "2026-01-01T00:00:00Z"
    case .date: return "2026-01-01"
    case .time: return "10:00:00Z"
    case .duration: return "P1D"
    case .email, .idnEmail: return "someone@example.com"
    case .hostname, .idnHostname: return "example.com"
    case .ipv4: return "127.0.0.1"
    case .ipv6: return "::1"
    case .uri, .iri, .uriReference, .iriReference: return "https://example.com/"
    case .uuid: return "00000000-0000-4000-8000-000000000000"
    case .uriTemplate: return "https://example.com/{id}"
    case .jsonPointer: return "/a"
    case .relativeJSONPointer: return "0"
    case .regex: return "a"
    }
  }
}
