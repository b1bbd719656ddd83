import AnalyticsHub
import Foundation
import Yams

/// Loads a tagging plan from YAML, all or nothing: a YAML error, an unknown key, a wrong
/// constraint type, an invalid pattern or a duplicate entry throws one ``PlanLoadError`` naming
/// the file, line and column.
///
/// The format (see `DemoPlan.yaml` in `PodcastDemo` for a complete plan):
///
/// ```yaml
/// plan: Podcasts              # required
/// version: 3
/// unplanned: error            # severity of unplanned-tag (error, the default, or warning)
/// screens:                    # also: actions, events, states, timed
///   podcasts:
///     providers:
///       firebase: {name: screen_view, params: {screen_name: show_podcasts}}
/// actions:
///   playPodcast:
///     severity: warning       # of this entry's violations (error by default)
///     properties:             # absent: properties unchecked; {}: the tag carries none
///       podcast_title: {type: string, required: true, maxLength: 100}
///       podcast_id: {type: string, pattern: "^p[0-9]+$"}
///     screens: [podcasts, favorites]        # the only screens it may happen on
///     providers:
///       firebase:                           # a list: conditional calls, then the fallback
///         - {when: {screen: favorites}, name: play_podcast_from_favorites, params: [podcast_title]}
///         - {name: play_podcast, params: {podcast_title: {type: string}, source: app}}
///       braze: {method: logCustomEvent, name: podcast_played}
///       piano: none                         # must receive nothing
/// timed:
///   listening:
///     providers:
///       firebase:
///         - {when: {phase: start}, name: listening_start}
///         - {when: {phase: stop}, name: listening_stop, params: [duration]}
///         - {when: {phase: cancel}, name: listening_cancel}
/// ```
///
/// Property and parameter constraints use JSON Schema words: `type` (string, integer, number,
/// boolean, array, object, null, or a list of them), `required`, `enum`, `pattern` (searched
/// anywhere in the string), `minimum`, `maximum`, `minLength`, `maxLength` (in Unicode code
/// points). `params` is a list of names that must be present, or a map of name to an expected
/// value, to constraints, or to nothing (present, any value). A call matches on `name` and, when
/// given, `method`. In a list of calls, those whose `when` (`screen`: one or a list; `phase`:
/// start, stop or cancel, timed events only) holds apply; when none does, those without `when`
/// apply. `none` (or `none: true` in a list) means the provider must receive no call. Screens
/// named in `screens` and `when` must be planned screens when the plan lists any. Anchors and
/// aliases (`&podcast`, `*podcast`) share definitions between entries.
public enum PlanLoader {
  static let topKeys =
    ["plan", "version", "description", "unplanned"] + PlanSection.allCases.map(\.key) + ["catalogues"]
  static let entryKeys = ["description", "severity", "properties", "screens", "providers"]
  static let propertyKeys =
    [
      "type", "required", "enum", "const", "pattern", "format", "minimum", "maximum", "minLength",
      "maxLength",
      "properties", "additionalProperties", "items", "description",
    ] + PlanLoader.keywordKeys
  static let catalogueKeys = [
    "unplanned", "propertiesAt", "entitiesAt", "valuesAsText", "calls", "methods", "description",
  ]
  static let catalogueEntryKeys = [
    "method", "severity", "propertiesAt", "params", "messageParams", "additionalProperties", "description",
  ]
  /// How deep `properties` and `items` may nest (a hostile plan cannot exhaust the stack).
  static let nestingLimit = 32
  static let callKeys = ["when", "name", "method", "params", "none", "description"]

  /// The largest plan file read (a plan is a few hundred KiB at most; an endless input stops here).
  static let maximumPlanBytes = 64 << 20

  /// Reads and loads the plan at `path`: a file, or a pipe such as `<(tagscope demo --print-plan)`
  /// (read as a stream, once).
  public static func load(contentsOf path: String) throws -> Plan {
    var data = Data()
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
      throw PlanLoadError(
        file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the plan: a directory"
      )
    }
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
      throw PlanLoadError(
        file: path, location: SourceLocation(line: 1, column: 1), message: "cannot read the plan: \(reason)")
    }
    defer { try? handle.close() }
    do {
      while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
        data.append(chunk)
        if data.count > maximumPlanBytes {
          throw PlanLoadError(
            file: path, location: SourceLocation(line: 1, column: 1),
            message: "the plan is larger than \(maximumPlanBytes >> 20) MiB")
        }
      }
    } catch let error as PlanLoadError {
      throw error
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
      root = try Yams.compose(yaml: yaml, YAMLScalarTags.composing)
    } catch let error as YamlError {
      throw convert(error, yaml: yaml, file: file)
    }
    guard let root else {
      throw PlanLoadError(
        file: file, location: SourceLocation(line: 1, column: 1), message: "the plan is empty")
    }
    // Only an anchor (`&name`) can be aliased: without one, no node is shared and the walk that
    // bounds what aliases expand to has nothing to find (a written plan, an import's, has none).
    if mayHoldAnAnchor(yaml) {
      do {
        try YAMLExpansionBudget.check(root, documentBytes: yaml.utf8.count)
      } catch {
        throw PlanLoadError(file: file, location: error.location, message: error.message)
      }
    }
    return try Builder(reader: YAMLReader(file: file), yaml: yaml).plan(root)
  }

  /// Whether `yaml` has a `&` that can start an anchor: not after a letter or digit (`R&D` is
  /// text), not before a space or the end (`a & b`). Any other `&` counts, even inside quotes.
  static func mayHoldAnAnchor(_ yaml: String) -> Bool {
    func isAlphanumeric(_ byte: UInt8) -> Bool {
      ((byte | 0x20) >= 97 && (byte | 0x20) <= 122) || (byte >= 48 && byte <= 57) || byte >= 0x80
    }
    var previous: UInt8 = 10
    var afterAmpersand = false
    for byte in yaml.utf8 {
      if afterAmpersand, byte != 32, byte != 9, byte != 10, byte != 13 { return true }
      afterAmpersand = byte == 38 && !isAlphanumeric(previous)
      previous = byte
    }
    return false
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
