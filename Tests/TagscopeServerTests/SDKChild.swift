import AnalyticsHub
import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

#if canImport(Glibc)
  import Glibc
#endif

/// An official Python SDK in a child process, as an app's SDK: one JSON line per call on its
/// standard input, its queue, batching and flushes its own. Segment's
/// (`scripts/sdk-clients/segment_ledger_client.py`) sends to a `listen` or, through `tagscope
/// proxy`, to api.segment.io; outside CI, `TAGSCOPE_SEGMENT_LEDGER_CLIENT` names any executable
/// taking the same arguments and lines (one built on Segment's Swift SDK) to run instead.
/// Amplitude's and Mixpanel's (`sdk_ledger_client.py`) send to a `listen`.
final class SDKChild: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  /// The child's output and errors, a whole line each (each read from its own pipe: a line the
  /// script prints is never cut by a log line its SDK writes meanwhile).
  private let lines = LockedArray<String>()
  /// Kills the child should it never end (a flush waiting on a queue that never fills).
  private var hangGuard: HangGuard?

  /// The SDK sending to the `listen` at `port`, a batch when `uploadSize` calls are queued or
  /// every `uploadInterval` seconds (by default each call on its own, as soon as it is queued).
  convenience init(port: Int, uploadSize: Int = 1, uploadInterval: Double = 0.05) throws {
    try self.init(host: ("127.0.0.1", port), upload: (uploadSize, uploadInterval), proxy: nil)
  }

  /// The SDK sending to api.segment.io through the proxy at `proxyPort`, trusting `caFile` (the
  /// proxy's CA), as a device set up for `tagscope proxy`; batches as above (by default each call
  /// on its own).
  convenience init(proxyPort: Int, caFile: String, uploadSize: Int = 1, uploadInterval: Double = 0.05)
    throws
  {
    try self.init(host: ("-", 0), upload: (uploadSize, uploadInterval), proxy: (proxyPort, caFile))
  }

  /// Amplitude's or Mixpanel's SDK (`sdk`: `amplitude`, `mixpanel`) sending to the `listen` at
  /// `port` for `user`, each event as soon as it is read.
  convenience init(sdk: String, port: Int, user: String = "user-42") throws {
    try self.init(
      script: "sdk_ledger_client", arguments: [sdk, "127.0.0.1", String(port), user], proxy: nil)
  }

  private convenience init(
    host: (name: String, port: Int), upload: (size: Int, interval: Double),
    proxy: (port: Int, caFile: String)?
  ) throws {
    let arguments = [host.name, String(host.port), String(upload.size), String(upload.interval)]
    try self.init(
      script: "segment_ledger_client", arguments: arguments, proxy: proxy,
      replacement: ProcessInfo.processInfo.environment["TAGSCOPE_SEGMENT_LEDGER_CLIENT"])
  }

  /// `scripts/sdk-clients/SCRIPT.py ARGUMENTS…` in the venv, or `replacement ARGUMENTS…`.
  private init(
    script: String, arguments: [String], proxy: (port: Int, caFile: String)?, replacement: String? = nil
  ) throws {
    if let replacement {
      process.executableURL = URL(fileURLWithPath: replacement)
      process.arguments = arguments
    } else {
      let python = packageRoot.appendingPathComponent(".venv/bin/python")
      guard FileManager.default.isExecutableFile(atPath: python.path) else {
        throw XCTSkip("!!! SKIPPING: \(python.path) is missing (scripts/sdk-clients/requirements.txt)")
      }
      process.executableURL = python
      process.arguments =
        [packageRoot.appendingPathComponent("scripts/sdk-clients/\(script).py").path] + arguments
    }
    process.environment = Self.environment(proxy: proxy)
    // Apart: with PYTHONUNBUFFERED set, `print` writes a line and its newline separately, and the
    // SDK's consumer thread logged between them ("took 4error uploading: …"), so "took 4" never came.
    let output = Pipe()
    let errors = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    hangGuard = HangGuard(process)
    for pipe in [output, errors] { Self.readLines(pipe.fileHandleForReading, into: lines) }
  }

  /// Reads `reader` to its end on a thread of its own, appending each whole line to `lines`.
  private static func readLines(_ reader: FileHandle, into lines: LockedArray<String>) {
    Thread {
      var pending = Data()
      while case let data = reader.availableData, !data.isEmpty {
        pending += data
        while let end = pending.firstIndex(of: 10) {
          lines.append(String(decoding: pending[pending.startIndex..<end], as: UTF8.self))
          pending = Data(pending[(end + 1)...])
        }
      }
      if !pending.isEmpty { lines.append(String(decoding: pending, as: UTF8.self)) }
    }.start()
  }

  /// This process's environment with the proxy at `proxy` (trusting its CA) or none.
  private static func environment(proxy: (port: Int, caFile: String)?) -> [String: String] {
    var environment = ProcessInfo.processInfo.environment
    guard let proxy else {
      environment["NO_PROXY"] = "*"
      environment["no_proxy"] = "*"
      return environment
    }
    for name in ["NO_PROXY", "no_proxy"] { environment[name] = nil }
    for name in ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"] {
      environment[name] = "http://127.0.0.1:\(proxy.port)"
    }
    environment["REQUESTS_CA_BUNDLE"] = proxy.caFile
    environment["SSL_CERT_FILE"] = proxy.caFile
    return environment
  }

  /// Has the SDK make the call `method` (`track`, `identify`, `screen`) of `name` with `properties`.
  func send(_ method: String, name: String, properties: Properties = [:]) throws {
    let line =
      "{\"method\":" + JSONText.quoted(method) + ",\"name\":" + JSONText.quoted(name) + ",\"properties\":"
      + JSONText.string(properties) + "}\n"
    try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
  }

  /// Has the SDK send a `track` of `name`.
  func track(_ name: String) throws { try send("track", name: name) }

  /// Whether the SDK took `count` calls into its queue.
  func waitUntilTaken(_ count: Int) -> Bool { eventually { self.lines.all.contains("took \(count)") } }

  /// Everything the child printed so far.
  var output: String { lines.all.joined(separator: "\n") }

  /// Ends the child's input: it flushes its queue and exits.
  func finishInput() { try? input.fileHandleForWriting.close() }

  /// Waits for the child to end (a child that never does is killed by its ``HangGuard``, and says
  /// so in ``output``): its exit status.
  func waitForExit() -> Int32 {
    process.waitUntilExit()
    if hangGuard?.finish() == true {
      lines.append(
        "[killed by the test's hang guard: still running after \(Int(HangGuard.defaultSeconds)) s]")
    }
    return process.terminationStatus
  }

  /// Kills the child at once, its queue unsent.
  func kill() {
    if process.isRunning { _ = Glibc.kill(process.processIdentifier, SIGKILL) }
    process.waitUntilExit()
  }
}
