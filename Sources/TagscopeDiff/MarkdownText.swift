import TagscopeBasics
import TagscopeTimeline

/// The one Markdown escaper: what of an untrusted text (a tag, provider, call or key name from a
/// recording, a file name) may reach a Markdown report, such as a pull-request comment, as literal
/// text. Control, bidi and invisible characters and line breaks first become visible escapes
/// (``TerminalText``); then nothing can start a heading, quote, list, table cell, link, image,
/// emphasis, code span or HTML tag, nor a GitHub mention (`@team`), issue reference (`#123`,
/// `owner/repo#1`) or autolink (`https://…`, `www.…`).
public enum MarkdownText {
  /// An invisible word joiner, written as a character reference: it splits `@team`, `#123` and
  /// `https://` where GitHub looks for them, and shows nothing.
  static let joiner = "&#8288;"

  /// `text` as literal Markdown text, safe in a paragraph and in a table cell: ASCII punctuation
  /// that Markdown reads is backslash-escaped, `&`, `<` and `>` are character references, and a
  /// word joiner follows each `@` and `#`, the `:` of `://` and the `www` of `www.`.
  public static func escape(_ text: String) -> String {
    let scalars = Array(TerminalText.sanitize(text).unicodeScalars)
    var out = ""
    out.reserveCapacity(scalars.count + 16)
    for (index, scalar) in scalars.enumerated() {
      switch scalar {
      case "&": out += "&amp;"
      case "<": out += "&lt;"
      case ">": out += "&gt;"
      case "@": out += "@" + joiner
      case "#": out += "\\#" + joiner
      case ":" where starts(scalars, at: index + 1, with: "//"):
        out += ":" + joiner
      case "."
      where index >= 3 && String(String.UnicodeScalarView(scalars[(index - 3)..<index])).lowercased() == "www":
        out += joiner + "\\."
      default:
        if scalar.isASCII, punctuation.contains(UInt8(scalar.value)) { out += "\\" }
        out.unicodeScalars.append(scalar)
      }
    }
    return out
  }

  /// `text` inside a code span (a file name in a report's header): made visible as by
  /// ``escape(_:)``, with backticks, which would end the span, as quotes.
  public static func code(_ text: String) -> String {
    "`" + TerminalText.sanitize(text).replacingOccurrences(of: "`", with: "'") + "`"
  }

  /// ASCII punctuation Markdown (CommonMark, GitHub's tables, strikethrough and math) gives a meaning.
  private static let punctuation = Set("\\`*_[](){}+-.!|~$=".utf8)

  private static func starts(_ scalars: [Unicode.Scalar], at index: Int, with prefix: String) -> Bool {
    let wanted = Array(prefix.unicodeScalars)
    guard index + wanted.count <= scalars.count else { return false }
    return Array(scalars[index..<(index + wanted.count)]) == wanted
  }
}
