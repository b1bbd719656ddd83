/// The machine-readable report:
/// `{"violations":[{"seq","severity","rule","tag","provider","message"}…],
/// "coverage":{"planned","seen","missing":[…]},"records":N}` (`provider` is null when none).
public enum JSONReport {
  /// The report as one JSON object, ending with a newline.
  public static func render(_ report: ValidationReport) -> String {
    var out = "{\"violations\":["
    for (index, violation) in report.violations.enumerated() {
      if index > 0 { out += "," }
      out += "{\"seq\":\(violation.seq),\"severity\":\"\(violation.severity.rawValue)\""
      out += ",\"rule\":\"\(violation.rule.rawValue)\",\"tag\":"
      appendString(violation.tag, to: &out)
      out += ",\"provider\":"
      if let provider = violation.provider { appendString(provider, to: &out) } else { out += "null" }
      out += ",\"message\":"
      appendString(violation.message, to: &out)
      out += "}"
    }
    out +=
      "],\"coverage\":{\"planned\":\(report.coverage.planned),\"seen\":\(report.coverage.seenCount),\"missing\":["
    for (index, item) in report.coverage.missing.enumerated() {
      if index > 0 { out += "," }
      appendString(item.id, to: &out)
    }
    out += "]},\"records\":\(report.records)}\n"
    return out
  }

  /// Appends `text` as a JSON string literal.
  static func appendString(_ text: String, to out: inout String) {
    out += "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": out += "\\\""
      case "\\": out += "\\\\"
      case "\n": out += "\\n"
      case "\r": out += "\\r"
      case "\t": out += "\\t"
      default:
        if scalar.value < 0x20 || scalar.value == 0x2028 || scalar.value == 0x2029 {
          let hex = String(scalar.value, radix: 16)
          out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        } else {
          out.unicodeScalars.append(scalar)
        }
      }
    }
    out += "\""
  }
}
