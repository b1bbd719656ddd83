import AnalyticsHub
import TagscopeRecording

/// A filter term on values: `prop.NAME` (a tag property) or `param.NAME` (a parameter of any call
/// in any provider's output), with `:` (equals), `~` (a part, or `/regex/`) or `>`, `>=`, `<`, `<=`
/// (numbers).
///
/// A name is any case; `prop.product.sku` is the key `product.sku` if the record has one, else
/// `sku` inside the object `product`. An array matches when one of its elements does.
public struct ValueTerm: Sendable, Hashable {
  /// Where the values are.
  public enum Scope: String, Sendable, Hashable {
    /// The record's tag properties (`prop.`).
    case property = "prop"
    /// The parameters of every call in every provider output (`param.`).
    case parameter = "param"
  }

  /// A comparison of numbers.
  public enum Comparison: String, Sendable, Hashable, CaseIterable {
    case greater = ">"
    case greaterOrEqual = ">="
    case less = "<"
    case lessOrEqual = "<="

    func holds(_ order: Order) -> Bool {
      switch self {
      case .greater: order == .greater
      case .greaterOrEqual: order != .less
      case .less: order == .less
      case .lessOrEqual: order != .greater
      }
    }
  }

  /// How a value is compared with a number.
  enum Order { case less, equal, greater }

  /// What a value must be.
  public enum Test: Sendable, Hashable {
    /// `:`: the same string (any case), the same number when the text is one, `true`/`false` for a
    /// boolean, `null` for null.
    case equals(String)
    /// `~`: the value's text contains it (any case) or matches the `/regex/`.
    case pattern(TimelineFilter.NameMatch)
    /// `>`, `>=`, `<`, `<=`: a number compared with this one; a value that is no number never
    /// passes.
    case compare(Comparison, String)
  }

  /// Where the values are.
  public var scope: Scope
  /// The property or parameter name, as typed.
  public var name: String
  /// What one of its values must be.
  public var test: Test

  /// A term.
  public init(scope: Scope, name: String, test: Test) {
    self.scope = scope
    self.name = name
    self.test = test
  }

  /// Whether `record` has a value of this name that passes the test.
  public func accepts(_ record: Record) -> Bool {
    let passes = predicate()
    switch scope {
    case .property: return Self.values(named: name, in: record.properties).contains(where: passes)
    case .parameter:
      return record.outputs.contains { output in
        output.calls.contains { call in Self.values(named: name, in: call.parameters).contains(where: passes)
        }
      }
    }
  }

  /// The values called `name` (any case) in `properties`; a dotted name also goes into objects.
  static func values(named name: String, in properties: Properties) -> [PropertyValue] {
    var found: [PropertyValue] = []
    for (key, value) in properties {
      if key.caseInsensitiveCompare(name) == .orderedSame {
        found.append(value)
      } else if case .object(let inner) = value, name.count > key.count + 1,
        name.lowercased().hasPrefix(key.lowercased() + ".")
      {
        found += values(named: String(name.dropFirst(key.count + 1)), in: inner)
      }
    }
    return found
  }

  /// The test as a predicate on one value (a pattern compiled once).
  func predicate() -> (PropertyValue) -> Bool {
    let single: (PropertyValue) -> Bool
    switch test {
    case .equals(let text):
      let number = FilterNumber(text)
      single = { value in
        switch value {
        case .string(let string): return string.caseInsensitiveCompare(text) == .orderedSame
        case .int, .largeInteger, .double: return number.map { $0.order(of: value) == .equal } ?? false
        case .bool(let flag): return text.lowercased() == (flag ? "true" : "false")
        case .null: return text.lowercased() == "null"
        case .date: return value.displayText.caseInsensitiveCompare(text) == .orderedSame
        case .array, .object: return false
        }
      }
    case .pattern(let match):
      let matches = FilterTerms.matcher(match)
      single = { matches($0.displayText) }
    case .compare(let comparison, let text):
      let number = FilterNumber(text)
      single = { value in number?.order(of: value).map(comparison.holds) ?? false }
    }
    func passes(_ value: PropertyValue) -> Bool {
      if case .array(let elements) = value { return elements.contains(where: passes) }
      return single(value)
    }
    return passes
  }

  /// Reads `prop.NAME…` or `param.NAME…` (the scope already checked by the caller); returns why it
  /// is invalid, naming the term.
  static func parse(_ term: String, scope: Scope) -> Result<ValueTerm, Filter.ParseError> {
    let prefix = scope.rawValue + "."
    let rest = term.dropFirst(prefix.count)
    let example = scope == .property ? "prop.sku:A-1" : "param.value>10"
    let operators: Set<Character> = [":", "~", ">", "<"]
    guard let start = rest.firstIndex(where: operators.contains) else {
      if rest.isEmpty {
        return .failure(Filter.ParseError(message: "\(prefix) needs a name and a value (\(example))"))
      }
      return .failure(
        Filter.ParseError(message: "\(term) needs an operator and a value (:, ~, >, >=, <, <=: \(example))"))
    }
    let name = String(rest[..<start])
    guard !name.isEmpty else {
      return .failure(Filter.ParseError(message: "\(prefix) needs a name before \(rest[start]) (\(example))"))
    }
    var valueStart = rest.index(after: start)
    var symbol = String(rest[start])
    if rest[start] == ">" || rest[start] == "<", valueStart < rest.endIndex, rest[valueStart] == "=" {
      symbol += "="
      valueStart = rest.index(after: valueStart)
    }
    let value = String(rest[valueStart...])
    let head = prefix + name + symbol
    guard !value.isEmpty else { return .failure(Filter.ParseError(message: "\(head) needs a value")) }
    let test: Test
    switch symbol {
    case ":": test = .equals(value)
    case "~": test = .pattern(Filter.match(value, exact: false))
    default:
      guard FilterNumber(value) != nil, let comparison = Comparison(rawValue: symbol) else {
        return .failure(
          Filter.ParseError(
            message: "\(head)\(value): \"\(value)\" is not a number (\(symbol) compares numbers)"))
      }
      test = .compare(comparison, value)
    }
    return .success(ValueTerm(scope: scope, name: name, test: test))
  }
}

/// A number typed in a filter (`10`, `-2.5`, `1e3`; not `0x10`, `inf` or `nan`), compared with a
/// value exactly when both are integers.
struct FilterNumber {
  /// The number: an integer exactly (digits past `Int`'s range kept), else a double.
  let value: PropertyValue

  init?(_ text: String) {
    let allowed: Set<Character> = ["+", "-", ".", "e", "E", "0", "1", "2", "3", "4", "5", "6", "7", "8", "9"]
    guard text.contains(where: \.isNumber), text.allSatisfy(allowed.contains), let double = Double(text),
      double.isFinite
    else { return nil }
    value = PropertyValue.integer(digits: text) ?? .double(double)
  }

  /// How `value` compares with this number, if it is a number (exactly: `NumberOrder`).
  func order(of value: PropertyValue) -> ValueTerm.Order? {
    guard let order = NumberOrder.compare(value, self.value) else { return nil }
    return order < 0 ? .less : order > 0 ? .greater : .equal
  }
}
