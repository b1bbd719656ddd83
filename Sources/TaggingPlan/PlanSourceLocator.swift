import Foundation

/// Finds where a plan a test loaded from its build products (a resource copied into a bundle
/// under `.build`, `DerivedData` or an `.xctest`) comes from: the file of the same name and the
/// same bytes in the package of the test file, so failures cite the file a developer edits.
public enum PlanSourceLocator {
  /// Folders searched at most, so a huge tree cannot stall a failing test.
  static let folderLimit = 2_000

  /// The source of `planFile` near `testFile` (`#filePath`), as a path relative to the package
  /// root when it is inside it; `nil` when the plan is not a build product or no source matches.
  public static func source(of planFile: String, near testFile: String) -> String? {
    guard isBuildProduct(planFile),
      let planned = FileManager.default.contents(atPath: planFile),
      let root = packageRoot(above: testFile)
    else { return nil }
    let name = (planFile as NSString).lastPathComponent
    var folders = [root]
    var searched = 0
    while let folder = folders.popLast(), searched < folderLimit {
      searched += 1
      guard let children = try? FileManager.default.contentsOfDirectory(atPath: folder) else { continue }
      for child in children.sorted() {
        let path = (folder as NSString).appendingPathComponent(child)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { continue }
        if isFolder.boolValue {
          if !child.hasPrefix("."), !isBuildProduct(path + "/") { folders.append(path) }
        } else if child == name, FileManager.default.contents(atPath: path) == planned {
          return String(path.dropFirst(root.count + 1))
        }
      }
    }
    return nil
  }

  /// Whether `path` lies in build products rather than sources.
  static func isBuildProduct(_ path: String) -> Bool {
    ["/.build/", "/DerivedData/", ".bundle/", ".xctest/", ".resources/"].contains { path.contains($0) }
  }

  /// The nearest folder above `file` that holds a `Package.swift`.
  static func packageRoot(above file: String) -> String? {
    var folder = (file as NSString).deletingLastPathComponent
    while folder.count > 1 {
      if FileManager.default.fileExists(atPath: (folder as NSString).appendingPathComponent("Package.swift"))
      {
        return folder
      }
      folder = (folder as NSString).deletingLastPathComponent
    }
    return nil
  }
}
