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

  /// What the walk found under a directory: files to read, entries it could not read (each
  /// with why), and directories left to walk.
  struct Found {
    var files: [String] = []
    var unread: [ImportInput.Unread] = []
  }

  /// Adds the files under `directory` (written without a trailing `/`) to `found`, hidden
  /// entries skipped, and every entry it cannot read or does not walk to `found.unread`;
  /// `root`: the directory the user named — the only one whose failure to open is an error (a
  /// subdirectory that cannot be opened is listed as unread, and the rest is walked).
  static func collect(_ directory: String, root: String, into found: inout Found) throws(ImportError) {
    guard let stream = opendir(directory) else {
      guard directory == root || directory + "/" == root else {
        found.unread.append(ImportInput.Unread(path: directory, reason: .unreadableDirectory))
        return
      }
      throw ImportError(file: root, message: "cannot read the directory")
    }
    var subdirectories: [String] = []
    while let entry = readdir(stream) {
      let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
        String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
      }
      guard !name.hasPrefix(".") else { continue }
      let full = directory + "/" + name
      if classify(full, type: Int32(entry.pointee.d_type), into: &found) {
        subdirectories.append(full)
      }
    }
    closedir(stream)
    for subdirectory in subdirectories {
      try collect(subdirectory, root: root, into: &found)
    }
  }

  /// Files the entry `path` of `readdir` type `type` in `found`; `true` when it is a directory
  /// to walk. A link is followed to a file; a link to a directory is not walked (it could lead
  /// back up the tree) and, like a link to nothing or an entry `lstat` cannot read when the file
  /// system gave no type, is listed as unread.
  static func classify(_ path: String, type: Int32, into found: inout Found) -> Bool {
    switch type {
    case Int32(DT_DIR): return true
    case Int32(DT_LNK): link(path, into: &found)
    case Int32(DT_UNKNOWN):
      var status = stat()
      guard lstat(path, &status) == 0 else {
        found.unread.append(ImportInput.Unread(path: path, reason: .unreadableEntry))
        return false
      }
      switch status.st_mode & S_IFMT {
      case S_IFDIR: return true
      case S_IFLNK: link(path, into: &found)
      default: found.files.append(path)
      }
    default: found.files.append(path)
    }
    return false
  }

  /// Files the link `path` when it leads to a file, lists it as unread otherwise.
  private static func link(_ path: String, into found: inout Found) {
    switch kind(ofPath: path) {
    case .other: found.files.append(path)
    case .directory: found.unread.append(ImportInput.Unread(path: path, reason: .linkToDirectory))
    case nil: found.unread.append(ImportInput.Unread(path: path, reason: .linkToNothing))
    }
  }
}
