import AnalyticsHub
import Foundation
import Yams

/// Loads a tagging plan from YAML, all or nothing: a YAML error, an unknown key, a wrong
/// constraint type, an invalid pattern or a duplicate entry throws one ``PlanLoadError`` naming
/// the file, line and column.
public enum PlanLoader {
  static let topKeys = ["plan", "version", "description", "unplanned"] + PlanSection.allCases.map(\.key)
  static let entryKeys = ["description", "severity", "properties", "screens", "providers"]
  static let propertyKeys = [
    "type", "required", "enum", "pattern", "minimum", "maximum", "minLength", "maxLength", "description",
  ]
  static let callKeys = ["when", "name", "method", "params", "none", "description"]

  /// Reads and loads the plan at `path`.
  public static func load(contentsOf path: String) throws -> Plan {
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw PlanLoadError(
        file: path, location: SourceLocation(line: 1, column: 1),
        message: "cannot read the plan: \(error.localizedDescription)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw PlanLoadError(
        file: path, location: SourceLocation(line: 1, column: 1), message: "the plan is not UTF-8 text")
    }
    return try load(yaml: text, file: path)
  }

  /// Loads a plan from YAML text; `file` names it in errors.
  public static func load(yaml: String, file: String) throws -> Plan {
    let root: Node?
    do {
      root = try Yams.compose(yaml: yaml)
    } catch let error as YamlError {
      throw convert(error, yaml: yaml, file: file)
    }
    guard let root else {
      throw PlanLoadError(
        file: file, location: SourceLocation(line: 1, column: 1), message: "the plan is empty")
    }
    return try Builder(reader: YAMLReader(file: file), yaml: yaml).plan(root)
  }

  /// One message with line and column for each kind of Yams error.
  static func convert(_ error: YamlError, yaml: String, file: String) -> PlanLoadError {
    func at(_ mark: Mark, _ message: String) -> PlanLoadError {
      PlanLoadError(
        file: file, location: SourceLocation(line: mark.line, column: mark.column), message: message)
    }
    switch error {
    case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
      .composer(let context, let problem, let mark, _):
      let detail = context.map { " (\($0.text) at line \($0.mark.line), column \($0.mark.column))" } ?? ""
      return at(mark, "YAML error: \(problem)\(detail)")
    case .duplicatedKeysInMapping(let duplicates, let context):
      let key = duplicates.first ?? ""
      let first = SourceLocation(line: context.mark.line, column: context.mark.column)
      let second = DuplicateFinder.secondOccurrence(of: key, after: first, in: yaml) ?? first
      return PlanLoadError(
        file: file, location: second,
        message: "duplicate key '\(key)' (first at line \(first.line), column \(first.column))")
    case .reader(let problem, let offset, _, _):
      let location =
        offset.map { lineAndColumn(ofUTF8Offset: $0, in: yaml) } ?? SourceLocation(line: 1, column: 1)
      return PlanLoadError(file: file, location: location, message: "YAML error: \(problem)")
    default:
      return PlanLoadError(
        file: file, location: SourceLocation(line: 1, column: 1), message: "YAML error: \(error)")
    }
  }

  static func lineAndColumn(ofUTF8Offset offset: Int, in text: String) -> SourceLocation {
    var line = 1
    var column = 1
    for (index, byte) in text.utf8.enumerated() {
      if index >= offset { break }
      if byte == 10 {
        line += 1
        column = 1
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
    }
    return SourceLocation(line: line, column: column)
  }
}

/// Finds where a duplicated key appears again (Yams reports the first occurrence).
enum DuplicateFinder {
  /// The mark of the next `key:` after `first`, at the same column on a later line (block
  /// mappings) or later on the same line (flow mappings).
  static func secondOccurrence(of key: String, after first: SourceLocation, in yaml: String)
    -> SourceLocation?
  {
    let lines = yaml.split(separator: "\n", omittingEmptySubsequences: false)
    guard first.line >= 1, first.line <= lines.count else { return nil }
    let candidates = [key, "\"\(key)\"", "'\(key)'"]
    func keyColumn(in line: Substring, from start: Int) -> Int? {
      let scalars = Array(line.unicodeScalars)
      var index = start
      while index < scalars.count {
        for candidate in candidates {
          let keyScalars = Array(candidate.unicodeScalars)
          let end = index + keyScalars.count
          guard end <= scalars.count, Array(scalars[index..<end]) == keyScalars else { continue }
          var after = end
          while after < scalars.count, scalars[after] == " " { after += 1 }
          let before = index == 0 ? " " : scalars[index - 1]
          if after < scalars.count, scalars[after] == ":", before == " " || before == "{" || before == "," {
            return index + 1
          }
        }
        index += 1
      }
      return nil
    }
    let sameLine = lines[first.line - 1]
    if let column = keyColumn(in: sameLine, from: first.column) {
      return SourceLocation(line: first.line, column: column)
    }
    for number in first.line..<lines.count {
      let line = lines[number]
      if let column = keyColumn(in: line, from: 0), column == first.column {
        return SourceLocation(line: number + 1, column: column)
      }
    }
    return nil
  }
}
