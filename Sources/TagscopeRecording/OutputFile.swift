import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The one rule for a file a command writes (`plan import -o`, `listen --record`, `--junit`,
/// `--json`): a path that does not exist is created; an existing regular file is replaced only when
/// the command may replace it (`--force`, or a file the command always rewrites); a symbolic link,
/// FIFO, device, socket or directory is refused, naming the path, and neither replaced nor written
/// through.
package enum OutputFile {
  /// Why a path is not written.
  package struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The path given.
    package var path: String
    /// What is wrong, after the path.
    package var reason: String

    package var description: String { "\(path) \(reason)" }
  }

  /// What is at a path, without following a symbolic link.
  package enum Kind: String, Sendable {
    case missing
    case regular = "a regular file"
    case symbolicLink = "a symbolic link"
    case fifo = "a FIFO"
    case device = "a device"
    case socket = "a socket"
    case directory = "a directory"
    case other = "not a regular file"
  }

  /// What is at `path` (its own type when it is a symbolic link).
  package static func kind(of path: String) -> Kind {
    var status = stat()
    guard lstat(path, &status) == 0 else { return .missing }
    switch status.st_mode & S_IFMT {
    case S_IFREG: return .regular
    case S_IFLNK: return .symbolicLink
    case S_IFIFO: return .fifo
    case S_IFCHR, S_IFBLK: return .device
    case S_IFSOCK: return .socket
    case S_IFDIR: return .directory
    default: return .other
    }
  }

  /// Throws unless `path` may be written: missing, or a regular file when `replacing`; returns
  /// whether the file exists.
  @discardableResult
  package static func check(_ path: String, replacing: Bool) throws(Refusal) -> Bool {
    switch kind(of: path) {
    case .missing: return false
    case .regular:
      guard replacing else { throw Refusal(path: path, reason: "exists: pass --force to overwrite it") }
      return true
    case let other:
      throw Refusal(path: path, reason: "is \(other.rawValue): only a new or regular file is written")
    }
  }

  /// Writes `data` to `path` under ``check(_:replacing:)``: a new file is created exclusively, a
  /// regular file replaced atomically (written beside it, then renamed over it).
  package static func write(_ data: Data, to path: String, replacing: Bool) throws(Refusal) {
    let exists = try check(path, replacing: replacing)
    do {
      try data.write(to: URL(fileURLWithPath: path), options: exists ? [.atomic] : [.withoutOverwriting])
    } catch {
      throw Refusal(path: path, reason: "cannot be written: \(error.localizedDescription)")
    }
  }
}
