#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Lists a directory tree with `opendir`/`readdir` for ``ImportInput``: what each entry is comes
/// with its name, so only links (and entries of file systems that do not say) cost a `stat`.
enum DirectoryWalk {
  /// What a path is, links followed.
  enum Kind {
    case directory
    case other
  }

  /// What `path` is, following links; `nil` when nothing is there (or a link leads nowhere).
  static func kind(ofPath path: String) -> Kind? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    return status.st_mode & S_IFMT == S_IFDIR ? .directory : .other
  }

  /// Appends the files under `directory` (written without a trailing `/`) to `found`, and the
  /// links that lead nowhere to `broken`, hidden entries skipped; `root`: the directory the user
  /// named, for the error.
  static func collect(
    _ directory: String, root: String, into found: inout [String], broken: inout [String]
  ) throws(ImportError) {
    guard let stream = opendir(directory) else {
      throw ImportError(
        file: directory == root || directory + "/" == root ? root : directory,
        message: "cannot read the directory")
    }
    var subdirectories: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let full = directory + "/" + name
      switch Int32(entry.pointee.d_type) {
      case Int32(DT_DIR): subdirectories.append(full)
      case Int32(DT_LNK):
        // A link to a file is read; a link to a directory is not walked; a broken one is told.
        link(full, into: &found, broken: &broken)
      case Int32(DT_UNKNOWN):
        var status = stat()
        guard lstat(full, &status) == 0 else { continue }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: subdirectories.append(full)
        case S_IFLNK: link(full, into: &found, broken: &broken)
        default: found.append(full)
        }
      default: found.append(full)
      }
    }
    closedir(stream)
    for subdirectory in subdirectories {
      try collect(subdirectory, root: root, into: &found, broken: &broken)
    }
  }

  /// Files the link `path` when it leads to a file, notes it when it leads nowhere.
  private static func link(_ path: String, into found: inout [String], broken: inout [String]) {
    switch kind(ofPath: path) {
    case .other: found.append(path)
    case .directory: break
    case nil: broken.append(path)
    }
  }
}
