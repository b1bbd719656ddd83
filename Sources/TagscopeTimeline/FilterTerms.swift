import Foundation
import TagscopeBasics

/// Splitting filter text into terms, and matching a term's value outside the timeline (kinds, rule
/// ids).
public enum FilterTerms {
  /// The terms of `text`: split at spaces, except inside double quotes (which are removed).
  public static func split(_ text: String) -> Result<[String], Filter.ParseError> {
    var terms: [String] = []
    var current = ""
    var quoted = false
    for character in text {
      if character == "\"" {
        quoted.toggle()
      } else if character == " " && !quoted {
        if !current.isEmpty { terms.append(current) }
        current = ""
      } else {
        current.append(character)
      }
    }
    if quoted { return .failure(Filter.ParseError(message: "a quote is not closed")) }
    if !current.isEmpty { terms.append(current) }
    return .success(terms)
  }

  /// A value as typed into filter text: in double quotes when it holds a space.
  public static func quotedValue(_ value: String) -> String {
    value.contains(" ") ? "\"" + value + "\"" : value
  }

  /// A term as typed back into filter text: in double quotes when it holds a space (`key:"a b"`).
  public static func quoted(_ term: String) -> String {
    guard term.contains(" ") else { return term }
    if let separator = term.firstIndex(where: { $0 == ":" || $0 == "~" }) {
      return term[...separator] + "\"" + term[term.index(after: separator)...] + "\""
    }
    return "\"" + term + "\""
  }

  /// A predicate for one match (substring or regex any case; an invalid regex matches nothing).
  public static func matcher(_ match: TimelineFilter.NameMatch) -> (String) -> Bool {
    switch match {
    case .exact(let text): return { $0.caseInsensitiveCompare(text) == .orderedSame }
    case .substring(let text):
      if let literal = LinearPattern.cachedLiteral(text) { return { literal.matches($0) } }
      return { text.isEmpty || $0.range(of: text, options: .caseInsensitive) != nil }
    case .regex(let pattern):
      guard let compiled = try? LinearPattern.cached(pattern) else { return { _ in false } }
      return { compiled.matches($0) }
    }
  }
}
