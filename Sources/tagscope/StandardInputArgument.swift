import ArgumentParser

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `-` names standard input, which a command can read only once, and so can a pipe or a FIFO
/// (`<(zcat r.jsonl.gz)`): given twice among a command's recordings it is refused as written (a
/// usage error), before anything is read — a second reader would find nothing, or wait forever
/// for a FIFO's writer that is gone. A regular file may be given twice.
enum StandardInputArgument {
  /// Names of standard input besides `-`.
  private static let standardInputNames: Set<String> = ["/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"]

  /// Throws a usage error when standard input, a pipe or a FIFO is among `paths` more than once.
  static func checkReadOnce(_ paths: [String]) throws {
    var seen: Set<String> = []
    for path in paths {
      let key = standardInputNames.contains(path) ? "-" : path
      guard !seen.insert(key).inserted, isReadOnce(key) else { continue }
      if key == "-" {
        throw ValidationError("- (standard input) is given more than once: it can be read only once")
      }
      throw ValidationError("\(path) is given more than once: a pipe or FIFO can be read only once")
    }
  }

  /// Whether `path` gives its bytes once: `-`, or anything but a regular file (not opened here:
  /// opening a FIFO would wait for its writer).
  private static func isReadOnce(_ path: String) -> Bool {
    guard path != "-" else { return true }
    var status = stat()
    guard stat(path, &status) == 0 else { return false }
    return status.st_mode & S_IFMT != S_IFREG
  }
}
