import ArgumentParser
import Foundation
import TagscopeRecording
import TagscopeServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `tagscope import-capture FILE.har -o OUT.jsonl`: a HAR capture through the SDK decoders of
/// `listen` and the proxy, into a recording.
struct ImportCaptureCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "import-capture",
    abstract: "Turn a HAR capture (mitmproxy, Charles, Proxyman, browser devtools) into a recording.",
    discussion: """
      Every request of a HAR 1.2 file goes through the SDK decoders of listen and the proxy: the \
      same paths, bodies (gzip, deflate, base64), query strings, limits, devices and provider rules. \
      A request is decoded when its host is an SDK's own (tagscope help proxy) or one named with \
      --host. A record's time is the SDK's own, or else the entry's startedDateTime; its output \
      keeps the vendor's answer as response_status.

      Requests no decoder reads are counted and listed by host, path and reason with their first \
      entry; a malformed entry is reported with its index and field, and the others are imported.

      -o writes a new file, or with --force replaces a regular file; the recording is written \
      beside it first and moved into place once complete. The way back: tagscope export --har \
      writes a recording's wire records as a HAR capture.

      Exit status: 0 when every entry was read (some may be listed as not decoded); 1 when some \
      entry was malformed or refused (the others are in the recording); 2 when the file is no HAR \
      file or the output cannot be written. \(ExitStatusWords.usage)
      """)

  @Argument(help: "The HAR file.")
  var capture: String

  @Option(name: .shortAndLong, help: "The recording to write (JSON Lines).")
  var output: String

  @Option(
    name: .customLong("host"),
    help:
      "Also decode requests to this host (a self-hosted collector, or 127.0.0.1 for SDKs pointed at a local server); repeatable."
  )
  var hosts: [String] = []

  @Flag(help: "Replace the -o file when it exists (regular files only).")
  var force = false

  func run() throws {
    let summary = try Self.importCapture(capture, to: output, hosts: hosts, replacing: force)
    StandardError.write(Self.report(summary, capture: capture, output: output))
    if !summary.problems.isEmpty { throw ExitCode(1) }
  }

  /// Imports `capture` into a recording at `output` (decoding `hosts` besides the SDKs' own),
  /// written beside it and moved into place once complete; exits with 2 when the capture is no
  /// HAR file or `output` cannot be written (or exists, unless `replacing`).
  static func importCapture(_ capture: String, to output: String, hosts: [String], replacing: Bool) throws
    -> CaptureImport.Summary
  {
    let destination = try PartialOutput(output, replacing: replacing)
    let file = destination.handle
    let summary: CaptureImport.Summary
    do {
      var header: [UInt8] = []
      RecordLineEncoder.appendLine(
        RecordingHeader(app: "tagscope import-capture", device: (capture as NSString).lastPathComponent),
        to: &header)
      try file.write(contentsOf: header)
      var lines: [UInt8] = []  // written a megabyte at a time, not one write per entry
      summary = try CaptureImport(hosts: InterceptedHosts(extra: hosts)).run(path: capture) { records in
        for record in records { RecordLineEncoder.appendLine(record, to: &lines) }
        guard lines.count >= 1 << 20 else { return }
        try file.write(contentsOf: lines)
        lines.removeAll(keepingCapacity: true)
      }
      try file.write(contentsOf: lines)
      try file.close()
    } catch {
      StandardError.write("error: \(capture): \(error)\n")
      throw ExitCode(2)
    }
    try destination.commit()
    return summary
  }

  /// The import's account: counts, the requests not decoded, the problems.
  static func report(_ summary: CaptureImport.Summary, capture: String, output: String) -> String {
    var text =
      "\(capture): \(summary.entries) entries, \(summary.decoded) decoded into \(summary.records) records in \(output)\n"
    if !summary.unread.isEmpty {
      let count = summary.unread.reduce(0) { $0 + $1.count }
      text += "\(count) request\(count == 1 ? "" : "s") not decoded:\n"
      for unread in summary.unread {
        text +=
          "  \(unread.host)\(unread.path): \(unread.count)× from entry \(unread.firstEntry), \(unread.reason)\n"
      }
    }
    for problem in summary.problems { text += "\(capture): \(problem)\n" }
    return text
  }
}
