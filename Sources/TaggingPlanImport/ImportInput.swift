import Foundation

/// The files `tagscope plan import` reads: the paths given, directories walked (hidden entries
/// skipped, names sorted so the output does not depend on the file system's order).
enum ImportInput {
  /// The files under `path` (or `path` itself), each kept when `keep` says so.
  static func files(at path: String, keep: (String) -> Bool) throws(ImportError) -> [String] {
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
      throw ImportError(file: path, message: "cannot read: no such file or directory")
    }
    guard isDirectory.boolValue else { return [path] }
    guard let enumerator = FileManager.default.enumerator(atPath: path) else {
      throw ImportError(file: path, message: "cannot read the directory")
    }
    var found: [String] = []
    while let relative = enumerator.nextObject() as? String {
      let components = relative.split(separator: "/")
      if components.contains(where: { $0.hasPrefix(".") }) { continue }
      let full = path.hasSuffix("/") ? path + relative : path + "/" + relative
      var isSubdirectory: ObjCBool = false
      guard FileManager.default.fileExists(atPath: full, isDirectory: &isSubdirectory),
        !isSubdirectory.boolValue
      else { continue }
      if keep(full) { found.append(full) }
    }
    return found.sorted()
  }

  /// Whether `path` is in Iglu's layout: `…/vendor/name/jsonschema/version`.
  static func isIgluSchema(_ path: String) -> Bool {
    let components = path.split(separator: "/")
    return components.count >= 4 && components[components.count - 2] == "jsonschema"
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
