import Foundation

/// The files `tagscope plan import` reads: the paths given, directories walked (hidden entries
/// skipped, names sorted so the output does not depend on the file system's order).
enum ImportInput {
  /// What a directory holds for an import: its files, and the entries the walk could not read or
  /// did not walk.
  struct Tree: Equatable {
    /// The files, sorted.
    var files: [String]
    /// The entries not read, sorted by path: each is reported by the import, never skipped
    /// without a word.
    var unread: [Unread]
  }

  /// An entry of a tree that is not read, and why.
  struct Unread: Equatable {
    /// Why an entry is not read.
    enum Reason: Equatable {
      /// A symbolic link that leads nowhere.
      case linkToNothing
      /// A symbolic link to a directory: not walked (it could lead back up the tree).
      case linkToDirectory
      /// An entry whose kind the file system did not give and `lstat` could not read.
      case unreadableEntry
      /// A directory under the one named that cannot be opened.
      case unreadableDirectory
    }

    /// The entry's path.
    var path: String
    /// Why it is not read.
    var reason: Reason

    /// Whether the entry stands where a file would: reported only when the format would have read
    /// a file of that name (a directory is reported whatever its name).
    var isFileLike: Bool { reason == .linkToNothing || reason == .unreadableEntry }

    /// The warning's text.
    var message: String {
      switch reason {
      case .linkToNothing: "a link to nothing: not read"
      case .linkToDirectory: "a link to a directory: not walked (name the directory itself to import it)"
      case .unreadableEntry: "cannot tell what this entry is: not read"
      case .unreadableDirectory: "cannot read the directory: not walked"
      }
    }
  }

  /// The files under the directory `path`; `nil` when `path` is a file. The directory is walked
  /// with `readdir`, each entry's kind read from the directory itself (a symbolic link, or a file
  /// system that does not say, is looked up with `stat`), so a tree of thousands of schemas costs
  /// no lookup per file. Hidden entries are skipped; a link is followed to a file, never into a
  /// directory (as `FileManager`'s enumerator does); what is not read is listed apart.
  static func tree(at path: String) throws(ImportError) -> Tree? {
    guard let kind = DirectoryWalk.kind(ofPath: path) else {
      throw ImportError(file: path, message: "cannot read: no such file or directory")
    }
    guard kind == .directory else { return nil }
    var found = DirectoryWalk.Found()
    try DirectoryWalk.collect(path.hasSuffix("/") ? String(path.dropLast()) : path, root: path, into: &found)
    return Tree(files: found.files.sorted(), unread: found.unread.sorted { $0.path < $1.path })
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
