import AnalyticsHub

/// Swift source text for values: string literals and ``PropertyValue`` expressions.
enum SwiftLiteral {
  /// `"text"`, escaped so any plan text is a valid literal that reads back as itself.
  static func string(_ text: String) -> String {
    var out = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\\": out += "\\\\"
      case "\"": out += "\\\""
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value > 0x7E {
          out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    return out + "\""
  }

  /// A ``PropertyValue`` expression: `.string("x")`, `.int(3)`, `.object([…])`.
  static func value(_ value: PropertyValue) -> String {
    switch value {
    case .string(let text): return ".string(\(string(text)))"
    case .int(let number): return ".int(\(number))"
    case .largeInteger(let number): return ".largeInteger(LargeInteger(\(string(number.text)))!)"
    case .double(let number): return ".double(\(double(number)))"
    case .bool(let flag): return ".bool(\(flag))"
    case .date(let date): return ".string(\(string(PropertyValue.text(of: date))))"
    case .array(let values): return ".array([" + values.map(Self.value).joined(separator: ", ") + "])"
    case .object(let properties):
      return ".object(" + self.properties(properties.map { ($0.key, $0.value) }) + ")"
    case .null: return ".null"
    }
  }

  /// A ``Properties`` literal from names and value expressions already written.
  static func propertiesLiteral(_ pairs: [(String, String)]) -> String {
    guard !pairs.isEmpty else { return "[:]" }
    return "[" + pairs.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ") + "]"
  }

  /// A ``Properties`` literal of values.
  static func properties(_ pairs: [(String, PropertyValue)]) -> String {
    propertiesLiteral(pairs.map { ($0.0, value($0.1)) })
  }

  /// A double literal Swift reads back exactly (`1.0`, `1e+300`); infinities as `.infinity`.
  static func double(_ number: Double) -> String {
    guard number.isFinite else { return number < 0 ? "-Double.infinity" : "Double.infinity" }
    let text = String(number)
    return text.contains(".") || text.contains("e") ? text : text + ".0"
  }
}
