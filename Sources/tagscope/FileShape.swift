import ArgumentParser
import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// What a file given on the command line looks like from its first line, to say so when a plan is
/// given where a recording goes or the other way round (`validate REC --plan PLAN` swapped), before
/// a parser reports a YAML or JSON error that does not say why.
enum FileShape {
  /// The first line of the regular file at `path` (its first 4 KiB at most), or nil. Anything else
  /// (standard input, a FIFO, a device) is not opened: a pipe read here would be read once already.
  private static func firstLine(_ path: String) -> Substring? {
    // Only a regular file is opened: opening a FIFO would wait for its writer, or release it to
    // write into a pipe whose data goes when this closes. Opened without waiting and checked again,
    // in case the path changed meanwhile.
    var before = stat()
    guard path != "-", stat(path, &before) == 0, before.st_mode & S_IFMT == S_IFREG else { return nil }
    let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
    guard descriptor >= 0 else { return nil }
    let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
    defer { try? handle.close() }
    var status = stat()
    guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG,
      let data = try? handle.read(upToCount: 4_096)
    else { return nil }
    let text = String(decoding: data, as: UTF8.self)
    return text.split(separator: "\n", omittingEmptySubsequences: true).first { !$0.hasPrefix("#") }
  }

  /// Whether the file starts with a recording's header line (`{"format":"tagscope-recording",…}`).
  static func looksLikeRecording(_ path: String) -> Bool {
    guard let line = firstLine(path) else { return false }
    return line.hasPrefix("{") && line.contains("\"tagscope-recording\"")
  }

  /// Whether the file starts as a YAML plan does (`plan: NAME`, or another key then a colon) and
  /// not as JSON.
  static func looksLikePlan(_ path: String) -> Bool {
    guard let line = firstLine(path) else { return false }
    let trimmed = line.drop { $0 == " " || $0 == "\u{FEFF}" }
    guard !trimmed.hasPrefix("{"), !trimmed.hasPrefix("[") else { return false }
    if trimmed.hasPrefix("---") { return true }
    guard let colon = trimmed.firstIndex(of: ":") else { return false }
    return trimmed[..<colon].allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }
      && !trimmed[..<colon].isEmpty
  }

  /// A sentence for a plan given where a recording goes, or a recording where a plan goes, among
  /// `plans` and `recordings`; nil when each looks like what it is given as. `usage` is the
  /// command's argument shape (`tagscope validate --plan PLAN RECORDING…`).
  static func mixUp(plans: [String], recordings: [String], usage: String) -> String? {
    if let plan = plans.first(where: looksLikeRecording) {
      return
        "\(plan) looks like a recording (its first line is a tagscope-recording header), not a plan; usage: \(usage)"
    }
    if let recording = recordings.first(where: looksLikePlan) {
      return "\(recording) looks like a YAML tagging plan, not a recording; usage: \(usage)"
    }
    return nil
  }
}

extension FileShape {
  /// Stops with exit code 2 (bad input) and one line when ``mixUp(plans:recordings:usage:)`` finds
  /// a plan and a recording given in each other's place.
  static func refuseMixUp(plans: [String] = [], recordings: [String] = [], usage: String) throws {
    guard let message = mixUp(plans: plans, recordings: recordings, usage: usage) else { return }
    StandardError.write("tagscope: \(message)\n")
    throw ExitCode(2)
  }
}
