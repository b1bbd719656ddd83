import AnalyticsHub
import Foundation
import TaggingPlan

/// Doc comment text from a plan: descriptions, and the constraints a Swift type cannot say.
enum Documentation {
  /// The rule's description, or `fallback`.
  static func summary(of rule: PropertyRule, fallback: String) -> String {
    rule.description.map(oneLine) ?? fallback
  }

  /// Text on one line (doc comments are written one line each; a newline in a description would
  /// end the comment).
  static func oneLine(_ text: String) -> String {
    text.split(whereSeparator: { $0.isNewline }).map { $0.trimmingCharacters(in: .whitespaces) }
      .joined(separator: " ")
  }

  /// `pattern ^p[0-9]+$; 1 to 100 characters`: the constraints a type does not carry.
  static func constraints(of rule: PropertyRule) -> String {
    var parts: [String] = []
    if let pattern = rule.pattern { parts.append("pattern `\(pattern.source)`") }
    if let format = rule.format { parts.append("format \(format.rawValue)") }
    switch (rule.minLength, rule.maxLength) {
    case (let low?, let high?): parts.append("\(low) to \(high) characters")
    case (let low?, nil): parts.append("at least \(low) character" + (low == 1 ? "" : "s"))
    case (nil, let high?): parts.append("at most \(high) character" + (high == 1 ? "" : "s"))
    case (nil, nil): break
    }
    switch (rule.minimum, rule.maximum) {
    case (let low?, let high?): parts.append("from \(number(low)) to \(number(high))")
    case (let low?, nil): parts.append("at least \(number(low))")
    case (nil, let high?): parts.append("at most \(number(high))")
    case (nil, nil): break
    }
    if let allowed = rule.allowed, allowed.contains(where: { $0.stringValue == nil }) {
      parts.append("one of " + allowed.map(\.displayText).joined(separator: ", "))
    }
    if rule.keywords != nil { parts.append("more constraints in the plan") }
    return parts.joined(separator: "; ")
  }

  /// `the podcast's title (pattern …)`: what a parameter's doc line says.
  static func parameter(_ field: Field) -> String {
    let text = field.rule.description.map(oneLine) ?? "`\(field.key)`"
    let constraints = constraints(of: field.rule)
    let optional = field.isOptional ? "optional" : (field.isNullable ? "required, may be nil" : "")
    let notes = [optional, constraints].filter { !$0.isEmpty }.joined(separator: "; ")
    return notes.isEmpty ? text : "\(text) (\(notes))"
  }

  static func number(_ value: Double) -> String {
    value.rounded() == value && abs(value) < 1e15 ? String(Int64(value)) : String(value)
  }
}
