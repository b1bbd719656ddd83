import AnalyticsHub
import Foundation

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
/// customProviders: [inhouse]  # ids of SDKs Tagscope does not know, named on purpose
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
    ["plan", "version", "description", "unplanned", "customProviders"] + PlanSection.allCases.map(\.key)
    + ["catalogues", "funnels", "privacy", "consent"]
  static let entryKeys = [
    "description", "severity", "properties", "screens", "providers", "after", "once", "duplicateWithin",
  ]
  static let propertyKeys =
    [
      "type", "required", "enum", "const", "pattern", "format", "minimum", "maximum", "minLength",
      "maxLength", "pii",
      "properties", "additionalProperties", "items", "description",
    ] + PlanLoader.keywordKeys
  static let catalogueKeys = [
    "unplanned", "propertiesAt", "entitiesAt", "valuesAsText", "calls", "methods", "description",
  ]
  /// A catalogue entry's keys; the rarer keywords apply to its parameters as one object.
  static let catalogueEntryKeys =
    [
      "method", "severity", "propertiesAt", "params", "messageParams", "additionalProperties", "description",
    ] + PlanLoader.keywordKeys
  /// How deep `properties` and `items` may nest (a hostile plan cannot exhaust the stack).
  static let nestingLimit = 32
  static let callKeys = ["when", "name", "method", "params", "none", "description"]

  /// The largest plan file read (a plan is a few hundred KiB at most; an endless input stops here).
  static let maximumPlanBytes = 64 << 20

  /// Reads and loads the plan at `path`: a file, or a pipe such as `<(tagscope demo --print-plan)`
  /// (read as a stream, once).
  public static func load(contentsOf path: String) throws -> Plan {
    try load(yaml: text(ofPlanAt: path), file: path)
  }

  /// The UTF-8 text of the plan at `path` (its bytes are let go once it is decoded).
  private static func text(ofPlanAt path: String) throws -> String {
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
    return text
  }

  /// Loads a plan from YAML text; `file` names it in errors.
  public static func load(yaml: String, file: String) throws -> Plan {
    try build(yaml: yaml, file: file, keepingCatalogueEntries: true)
  }

  /// Checks a plan as ``load(yaml:file:)`` does, throwing what it would, without keeping its
  /// catalogues' entries: what `plan import` does to the plan it writes, holding one entry of an
  /// import of many thousands at a time.
  public static func check(yaml: String, file: String) throws {
    _ = try build(yaml: yaml, file: file, keepingCatalogueEntries: false)
  }

  private static func build(yaml: String, file: String, keepingCatalogueEntries: Bool) throws -> Plan {
    let tree: YAMLTree?
    do {
      tree = try YAMLTree.compose(yaml)
    } catch {
      throw convert(error, file: file)
    }
    guard let tree else {
      throw PlanLoadError(
        file: file, location: SourceLocation(line: 1, column: 1), message: "the plan is empty")
    }
    do {
      try YAMLExpansionBudget.check(tree, documentBytes: yaml.utf8.count)
    } catch {
      throw PlanLoadError(file: file, location: error.location, message: error.message)
    }
    return try Builder(
      reader: YAMLReader(file: file), yaml: yaml, keepsCatalogueEntries: keepingCatalogueEntries
    ).plan(tree.root)
  }

  /// A compose error as a plan error: `YAML error: …`, or the duplicate key.
  static func convert(_ error: YAMLSyntaxError, file: String) -> PlanLoadError {
    switch error.reason {
    case .duplicateKey: return PlanLoadError(file: file, location: error.location, message: error.problem)
    default:
      return PlanLoadError(file: file, location: error.location, message: "YAML error: \(error.problem)")
    }
  }
}
