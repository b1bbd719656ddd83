import Foundation
import TagscopeRecording

/// `replay --scope NAME`: one UI test scope's records copied out of a recording (other lines left
/// blank, so the debugger cites the original's line numbers), for the debugger to open alone.
struct ReplayScope {
  /// The copy the debugger opens.
  let path: String
  /// A warning for standard error (a scope never ended), if any.
  let warning: String?
  private let directory: URL

  /// Why a scope cannot be replayed.
  struct Missing: Error, CustomStringConvertible {
    var description: String
  }

  /// Copies scope `name` of the recording at `file`; throws ``Missing`` naming the recording's
  /// scopes when none is `name`.
  init(_ name: String, of file: String) throws {
    guard file != "-" else {
      throw Missing(description: "--scope reads a recording file, not standard input")
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-scope-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let copy = directory.appendingPathComponent(URL(fileURLWithPath: file).lastPathComponent)
    let summary: ScopeSplit.Summary
    do { summary = try ScopeSplit.copy(scope: name, of: file, to: copy) } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
    guard summary.begun > 0 else {
      try? FileManager.default.removeItem(at: directory)
      let known = (try? ScopeSplit.names(in: file)) ?? []
      throw Missing(
        description: "no scope '\(name)' in \(file)"
          + (known.isEmpty ? " (it has no scope)" : " (its scopes: \(known.joined(separator: ", ")))"))
    }
    self.path = copy.path
    self.directory = directory
    self.warning =
      summary.leftOpen ? "\(file): warning: scope '\(name)' has no end: its records run to the end" : nil
  }

  /// Removes the copy.
  func remove() { try? FileManager.default.removeItem(at: directory) }
}
