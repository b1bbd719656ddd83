import Foundation
import TagscopeRecording

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Where a command writes its report: standard output, or the file given with `-o`, under
/// ``OutputFile``'s rule (a new file, or a regular one replaced; a link, FIFO or directory refused).
/// The file is written beside its path and renamed over it once complete, so a run that fails leaves
/// the previous report (or none), never half of one.
final class ReportDestination {
  /// A path that could not be written, in a sentence naming it.
  struct Unwritable: Error, CustomStringConvertible {
    let description: String
  }

  /// Where the report's bytes go.
  let handle: FileHandle
  private let path: String?
  private let temporary: String?

  /// Standard output when `path` is nil; else a new file beside `path`, or a refusal naming it.
  init(path: String?) throws {
    guard let path else {
      (handle, self.path, temporary) = (.standardOutput, nil, nil)
      return
    }
    try OutputFile.check(path, replacing: true)
    let url = URL(fileURLWithPath: path)
    let temporary = url.deletingLastPathComponent().appendingPathComponent(
      ".\(url.lastPathComponent).tagscope-\(UUID().uuidString)"
    ).path
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw Unwritable(description: "\(path) cannot be written (\(String(cString: strerror(errno))))")
    }
    (handle, self.path, self.temporary) = (
      FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), path, temporary
    )
  }

  /// Puts the written report at its path when `keep` (nothing is left there otherwise).
  func finish(keep: Bool) throws {
    guard let path, let temporary else { return }
    try? handle.close()
    guard keep else {
      unlink(temporary)
      return
    }
    // Checked again: something other than a regular file put there meanwhile is not replaced.
    do { try OutputFile.check(path, replacing: true) } catch {
      unlink(temporary)
      throw error
    }
    guard rename(temporary, path) == 0 else {
      let reason = String(cString: strerror(errno))
      unlink(temporary)
      throw Unwritable(description: "\(path) cannot be written (\(reason))")
    }
  }
}
