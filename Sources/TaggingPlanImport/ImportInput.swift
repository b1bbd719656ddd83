import Foundation

/// The files `tagscope plan import` reads: the paths given, directories walked (hidden entries
/// skipped, names sorted so the output does not depend on the file system's order).
enum ImportInput {
  /// What a directory holds for an import: its files, and its links that lead nowhere.
  struct Tree: Equatable {
    /// The files, sorted.
    var files: [String]
    /// The links to nothing, sorted: reported, never read.
    var brokenLinks: [String]
  }

  /// The files under the directory `path`; `nil` when `path` is a file. The directory is walked
  /// with `readdir`, each entry's kind read from the directory itself (a symbolic link, or a file
  /// system that does not say, is looked up with `stat`), so a tree of thousands of schemas costs
  /// no lookup per file. Hidden entries are skipped; a link is followed to a file, never into a
  /// directory (as `FileManager`'s enumerator does); a link to nothing is listed apart.
  static func tree(at path: String) throws(ImportError) -> Tree? {
    guard let kind = DirectoryWalk.kind(ofPath: path) else {
      throw ImportError(file: path, message: "cannot read: no such file or directory")
    }
    guard kind == .directory else { return nil }
    var (found, broken): ([String], [String]) = ([], [])
    try DirectoryWalk.collect(
      path.hasSuffix("/") ? String(path.dropLast()) : path, root: path, into: &found, broken: &broken)
    return Tree(files: found.sorted(), brokenLinks: broken.sorted())
  }

  /// Whether `path` is in Iglu's layout: `…/vendor/name/jsonschema/version`.
  static func isIgluSchema(_ path: String) -> Bool {
    // By bytes: asked of every file of a tree.
    let components = path.utf8.split(separator: UInt8(ascii: "/"))
    return components.count >= 4 && components[components.count - 2].elementsEqual("jsonschema".utf8)
  }

  /// Whether `path` names a JSON or YAML file.
  static func isDocument(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".json") || lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")
  }

  /// Whether `path` names RudderTyper's `plan.json` (in the directory its config's `path` names).
  static func isRudderTyperPlan(_ path: String) -> Bool {
    path == "plan.json" || path.hasSuffix("/plan.json")
  }

  /// Whether `path` names a YAML file.
  static func isYAML(_ path: String) -> Bool {
    let lower = path.lowercased()
    return lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")
  }
}
