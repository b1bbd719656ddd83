import Foundation

/// A code block of the documentation: a fenced or indented block of README.md or of a `///`
/// comment in Sources.
struct DocExample: Equatable {
  /// Where it is, relative to the package (`README.md`, `Sources/…/Firebase.swift`).
  var file: String
  /// The line of its opening fence (of its first line when indented), from 1.
  var line: Int
  /// The fence's language, lowercased (`swift`, `sh`, `yaml`; empty when it names none).
  var language: String
  /// The `<!-- doc-example: NAME -->` comment on the line before the block, if any.
  var marker: String?
  /// Its lines, without the comment's `///`.
  var code: [String]

  /// Swift as DocC sees it: a block that names no language is Swift too, so an unnamed diagram
  /// must say `text`; so is any `swift…` language (`swift-fragment` is no way around the check).
  var isSwift: Bool { language.isEmpty || language.hasPrefix("swift") }

  var location: String { "\(file):\(line)" }
}

/// Finds the code blocks of Markdown text and of the doc comments of Swift source, and matches
/// them against compiled copies.
enum DocExampleScanner {
  // MARK: Finding blocks

  /// The code blocks of a Markdown document.
  static func markdownExamples(_ text: String, file: String) -> [DocExample] {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    return blocks(in: lines, lineNumbers: Array(1...max(1, lines.count)), file: file)
  }

  /// The code blocks of the `///` comments of a Swift source file.
  static func docCommentExamples(_ source: String, file: String) -> [DocExample] {
    var found: [DocExample] = []
    var comment: [String] = []
    var numbers: [Int] = []
    func flush() {
      if !comment.isEmpty { found += blocks(in: comment, lineNumbers: numbers, file: file) }
      comment = []
      numbers = []
    }
    for (index, line) in source.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      guard trimmed.hasPrefix("///") else {
        flush()
        continue
      }
      var text = trimmed.dropFirst(3)
      if text.first == " " { text = text.dropFirst() }
      comment.append(String(text))
      numbers.append(index + 1)
    }
    flush()
    return found
  }

  /// Fenced (``` or ~~~) and indented (4 spaces after a blank line, outside lists) code blocks.
  private static func blocks(in lines: [String], lineNumbers: [Int], file: String) -> [DocExample] {
    var found: [DocExample] = []
    var index = 0
    var lastText: String?  // the last non-blank line outside code, to tell lists from code
    var previousBlank = true
    while index < lines.count {
      let line = lines[index]
      let marker = index > 0 ? docExampleMarker(lines[index - 1]) : nil
      if let fence = openingFence(line) {
        var code: [String] = []
        var end = index + 1
        while end < lines.count, !closes(lines[end], fence) {
          code.append(dedent(lines[end], by: fence.indent))
          end += 1
        }
        found.append(
          DocExample(
            file: file, line: lineNumbers[index], language: fence.language, marker: marker, code: code))
        index = end + 1
        lastText = nil
        previousBlank = false
        continue
      }
      if previousBlank, indentation(of: line) >= 4, !isBlank(line), !continuesList(lastText) {
        var code: [String] = []
        var end = index
        while end < lines.count, isBlank(lines[end]) || indentation(of: lines[end]) >= 4 {
          code.append(dedent(lines[end], by: 4))
          end += 1
        }
        while code.last.map(isBlank) == true { code.removeLast() }
        found.append(
          DocExample(file: file, line: lineNumbers[index], language: "", marker: marker, code: code))
        index = end
        lastText = nil
        previousBlank = true
        continue
      }
      if !isBlank(line) { lastText = line }
      previousBlank = isBlank(line)
      index += 1
    }
    return found
  }

  private struct Fence {
    var character: Character
    var length: Int
    var indent: Int
    var language: String
  }

  private static func openingFence(_ line: String) -> Fence? {
    let indent = indentation(of: line)
    guard indent < 4 else { return nil }
    let rest = line.dropFirst(indent)
    guard let character = rest.first, character == "`" || character == "~" else { return nil }
    let length = rest.prefix { $0 == character }.count
    guard length >= 3 else { return nil }
    let info = rest.dropFirst(length).trimmingCharacters(in: .whitespaces)
    if character == "`", info.contains("`") { return nil }
    let language = info.split(separator: " ").first.map { $0.lowercased() } ?? ""
    return Fence(character: character, length: length, indent: indent, language: language)
  }

  private static func closes(_ line: String, _ fence: Fence) -> Bool {
    let rest = line.drop { $0 == " " }
    let length = rest.prefix { $0 == fence.character }.count
    return length >= fence.length && rest.dropFirst(length).allSatisfy(\.isWhitespace)
  }

  /// `NAME` of a `<!-- doc-example: NAME -->` line.
  private static func docExampleMarker(_ line: String) -> String? {
    let text = line.trimmingCharacters(in: .whitespaces)
    guard text.hasPrefix("<!--"), text.hasSuffix("-->") else { return nil }
    let body = text.dropFirst(4).dropLast(3).trimmingCharacters(in: .whitespaces)
    guard body.hasPrefix("doc-example:") else { return nil }
    return body.dropFirst("doc-example:".count).trimmingCharacters(in: .whitespaces)
  }

  /// Whether an indented line after `lastText` belongs to a list item rather than starting code.
  private static func continuesList(_ lastText: String?) -> Bool {
    guard let lastText else { return false }
    if indentation(of: lastText) > 0 { return true }
    let text = lastText.drop { $0 == " " }
    if text.hasPrefix("- ") || text.hasPrefix("* ") || text.hasPrefix("+ ") { return true }
    let digits = text.prefix { $0.isNumber }
    return !digits.isEmpty
      && (text.dropFirst(digits.count).hasPrefix(". ") || text.dropFirst(digits.count).hasPrefix(") "))
  }

  private static func indentation(of line: String) -> Int { line.prefix { $0 == " " }.count }

  private static func isBlank(_ line: String) -> Bool { line.allSatisfy(\.isWhitespace) }

  private static func dedent(_ line: String, by count: Int) -> String {
    String(line.dropFirst(min(count, indentation(of: line))))
  }

  // MARK: Matching copies

  /// A line as compared: no leading or trailing whitespace, inner runs of whitespace as one space.
  static func normalized(_ line: String) -> String {
    line.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }

  /// A block's lines without its imports and blank lines, and its imported modules.
  static func comparable(_ code: [String]) -> (lines: [String], imports: [String]) {
    var lines: [String] = []
    var imports: [String] = []
    for line in code.map(normalized) where !line.isEmpty {
      if line.hasPrefix("import ") { imports.append(line) } else { lines.append(line) }
    }
    return (lines, imports)
  }

  /// A compiled file's lines as compared: doc comment lines left out, so a copy must be code.
  static func compiledLines(_ source: String) -> [String] {
    source.split(separator: "\n", omittingEmptySubsequences: false).map { normalized(String($0)) }
      .filter { !$0.isEmpty && !$0.hasPrefix("///") }
  }

  /// Where `example` is missing from `files` (path → compiled lines): `nil` when one file holds
  /// its lines in order, one after the other, and imports each module it imports; otherwise the
  /// first line no copy matched.
  static func missingLine(of example: DocExample, in files: [String: [String]]) -> String? {
    let (lines, imports) = comparable(example.code)
    guard let first = lines.first else { return nil }
    var bestMismatch: (matched: Int, line: String) = (-1, first)
    for (_, compiled) in files.sorted(by: { $0.key < $1.key }) {
      for start in compiled.indices where compiled[start] == first {
        var matched = 0
        while matched < lines.count, start + matched < compiled.count,
          compiled[start + matched] == lines[matched]
        {
          matched += 1
        }
        if matched == lines.count {
          if let missing = imports.first(where: { !compiled.contains($0) }) {
            if matched > bestMismatch.matched {
              bestMismatch = (matched, missing + "  (not imported by the copy's file)")
            }
            continue
          }
          return nil
        }
        if matched > bestMismatch.matched { bestMismatch = (matched, lines[matched]) }
      }
    }
    return bestMismatch.line
  }
}
