import Foundation

/// Runs the toolchain's `swift format --in-place` on generated files.
public enum SwiftFormatRun {
  /// Formats `paths` in place; what went wrong, or `nil` when they are formatted.
  public static func format(_ paths: [String]) -> String? {
    guard !paths.isEmpty else { return nil }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["swift", "format", "--in-place"] + paths
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    do { try process.run() } catch { return "swift format could not be run (\(error.localizedDescription))" }
    let message = errors.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else {
      let text = String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
      return "swift format exited with status \(process.terminationStatus)"
        + (text.isEmpty ? "" : ": \(text)")
    }
    return nil
  }
}
