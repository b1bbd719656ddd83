import Foundation

/// A recording argument of `replay` or `validate` that may be a HAR capture (a `.har` file):
/// imported first into a temporary recording, as `import-capture` imports it (the SDKs' own hosts;
/// `import-capture --host` adds others), its account on standard error.
struct CaptureInput {
  /// The recording to read: the argument itself, or the capture's imported recording.
  let path: String
  private let directory: URL?

  /// `argument` as a recording, importing it when it names a `.har` file.
  init(_ argument: String) throws {
    guard argument.lowercased().hasSuffix(".har") else {
      (path, directory) = (argument, nil)
      return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "tagscope-capture-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let output = directory.appendingPathComponent(
      URL(fileURLWithPath: argument).deletingPathExtension().lastPathComponent + ".jsonl"
    ).path
    do {
      let summary = try ImportCaptureCommand.importCapture(argument, to: output, hosts: [], replacing: false)
      StandardError.write(ImportCaptureCommand.report(summary, capture: argument, output: output))
    } catch {
      try? FileManager.default.removeItem(at: directory)
      throw error
    }
    (path, self.directory) = (output, directory)
  }

  /// Removes the imported recording, if any.
  func remove() {
    if let directory { try? FileManager.default.removeItem(at: directory) }
  }
}
