import Foundation

/// A `mitmdump` process on loopback, the proxy benchmark's peer: it intercepts `CONNECT` with a
/// certificate authority of its own in a temporary folder and answers Segment's `/v1/batch`
/// locally through `scripts/bench-mitm-addon.py`, appending each body to a JSON Lines file when
/// given one. `scripts/bench` installs it (`ensure_mitmproxy` in `scripts/lib.sh`).
final class MitmproxyPeer {
  /// The port it listens on.
  let port: Int
  /// Its certificate authority's certificate, which clients trust.
  let certificateFile: URL
  /// Where it appends each batch's body, if it records.
  let recording: URL?
  private let process: Process

  private init(port: Int, certificateFile: URL, recording: URL?, process: Process) {
    self.port = port
    self.certificateFile = certificateFile
    self.recording = recording
    self.process = process
  }

  /// `mitmdump`: `$TAGSCOPE_MITMDUMP`, else the venv `scripts/bench` makes.
  static var executable: String {
    ProcessInfo.processInfo.environment["TAGSCOPE_MITMDUMP"] ?? ".venv/mitmproxy/bin/mitmdump"
  }

  /// The addon: `$TAGSCOPE_MITM_ADDON`, else `scripts/bench-mitm-addon.py`.
  static var addon: String {
    ProcessInfo.processInfo.environment["TAGSCOPE_MITM_ADDON"] ?? "scripts/bench-mitm-addon.py"
  }

  /// The installed version (`mitmdump --version`'s first line), for the report.
  static func version() -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = ["--version"]
    let output = Pipe()
    process.standardOutput = output
    guard (try? process.run()) != nil else { return "mitmproxy" }
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let first = String(decoding: data, as: UTF8.self).split(separator: "\n").first ?? "mitmproxy"
    return first.replacingOccurrences(of: "Mitmproxy: ", with: "mitmproxy ")
  }

  /// Starts `mitmdump` with its configuration in `directory` (made here), recording to
  /// `directory/recording.jsonl` when `records`, and waits until it listens.
  static func start(in directory: URL, records: Bool, timeout: TimeInterval = 60) throws -> MitmproxyPeer {
    guard FileManager.default.isExecutableFile(atPath: executable) else {
      throw BenchFailure(
        "\(executable) not found: scripts/bench proxy installs mitmproxy (ensure_mitmproxy in scripts/lib.sh)"
      )
    }
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("conf"), withIntermediateDirectories: true)
    let ready = directory.appendingPathComponent("port")
    let recording = records ? directory.appendingPathComponent("recording.jsonl") : nil
    let log = directory.appendingPathComponent("mitmdump.log")
    guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
      throw BenchFailure("cannot create \(log.path)")
    }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments =
      [
        "-q", "-s", addon, "--listen-host", "127.0.0.1", "--listen-port", "0",
        "--set", "confdir=\(directory.appendingPathComponent("conf").path)",
        // Answered locally: no upstream connection for the certificate or the protocol.
        "--set", "connection_strategy=lazy", "--set", "bench_ready=\(ready.path)",
      ] + (recording.map { ["--set", "bench_record=\($0.path)"] } ?? [])
    process.standardOutput = try FileHandle(forWritingTo: log)
    process.standardError = try FileHandle(forWritingTo: log)
    try process.run()
    let deadline = Date().addingTimeInterval(timeout)
    while !FileManager.default.fileExists(atPath: ready.path) {
      guard process.isRunning, Date() < deadline else {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let said = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        throw BenchFailure("mitmdump did not start within \(Int(timeout)) s: \(said)")
      }
      usleep(20_000)
    }
    let text = try String(contentsOf: ready, encoding: .utf8)
    guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
      process.terminate()
      throw BenchFailure("mitmdump wrote no port to \(ready.path): \(text)")
    }
    return MitmproxyPeer(
      port: port, certificateFile: directory.appendingPathComponent("conf/mitmproxy-ca-cert.pem"),
      recording: recording, process: process)
  }

  /// Stops it (`SIGTERM`, then waits for it to exit; it closes its recording on the way).
  func stop() {
    guard process.isRunning else { return }
    process.terminate()
    process.waitUntilExit()
  }
}
