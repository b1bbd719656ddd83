import ArgumentParser
import Foundation
import TagscopeRecording

/// An output file written beside its place (`OUT.partial-PID`) and moved into place once
/// complete, so a failed command never leaves half a file: `export`, `import-capture` and
/// `redact` write through it. Every failure is said on standard error and exits with 2.
final class PartialOutput {
  /// Where the output goes once complete.
  let output: String
  /// The file being written.
  let handle: FileHandle
  private let partial: String

  /// Checks `output` (it may exist only when `replacing`) and creates the partial file beside it.
  init(_ output: String, replacing: Bool) throws {
    do { _ = try OutputFile.check(output, replacing: replacing) } catch {
      StandardError.write("error: \(error)\n")
      throw ExitCode(2)
    }
    let partial = output + ".partial-\(getpid())"
    guard FileManager.default.createFile(atPath: partial, contents: nil),
      let handle = FileHandle(forWritingAtPath: partial)
    else {
      StandardError.write("error: \(partial) cannot be created\n")
      throw ExitCode(2)
    }
    self.output = output
    self.partial = partial
    self.handle = handle
  }

  /// Moves the complete file into place (the caller has closed ``handle``).
  func commit() throws {
    guard rename(partial, output) == 0 else {
      StandardError.write("error: \(output) cannot be written: \(String(cString: strerror(errno)))\n")
      throw ExitCode(2)
    }
  }

  deinit { try? FileManager.default.removeItem(atPath: partial) }
}
