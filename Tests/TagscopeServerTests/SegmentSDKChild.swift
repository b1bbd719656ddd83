import Foundation
import TagscopeRecording
import TagscopeTestSupport
import XCTest

/// `scripts/sdk-clients/segment_ledger_client.py` (Segment's official Python SDK) sending each
/// call on its own as soon as it is queued; its host a `listen`.
final class SegmentSDKChild: @unchecked Sendable {
  private let process = Process()
  private let input = Pipe()
  private let lines = LockedArray<String>()

  /// The SDK sending to the `listen` at `port`.
  convenience init(port: Int) throws {
    try self.init(arguments: ["127.0.0.1", String(port)], proxy: nil)
  }

  /// The SDK sending to api.segment.io through the proxy at `proxyPort`, trusting `caFile` (the
  /// proxy's CA), as a device set up for `tagscope proxy`.
  convenience init(proxyPort: Int, caFile: String) throws {
    try self.init(arguments: ["-", "0"], proxy: (proxyPort, caFile))
  }

  private init(arguments: [String], proxy: (port: Int, caFile: String)?) throws {
    let python = packageRoot.appendingPathComponent(".venv/bin/python")
    guard FileManager.default.isExecutableFile(atPath: python.path) else {
      throw XCTSkip("!!! SKIPPING: \(python.path) is missing (scripts/sdk-clients/requirements.txt)")
    }
    process.executableURL = python
    process.arguments =
      [
        packageRoot.appendingPathComponent("scripts/sdk-clients/segment_ledger_client.py").path
      ] + arguments + ["1", "0.05"]
    var environment = ProcessInfo.processInfo.environment
    if let proxy {
      for name in ["NO_PROXY", "no_proxy"] { environment[name] = nil }
      for name in ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"] {
        environment[name] = "http://127.0.0.1:\(proxy.port)"
      }
      environment["REQUESTS_CA_BUNDLE"] = proxy.caFile
      environment["SSL_CERT_FILE"] = proxy.caFile
    } else {
      environment["NO_PROXY"] = "*"
      environment["no_proxy"] = "*"
    }
    process.environment = environment
    let output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = output
    try process.run()
    let reader = output.fileHandleForReading
    Thread { [lines] in
      while case let data = reader.availableData, !data.isEmpty {
        lines.append(String(decoding: data, as: UTF8.self))
      }
    }.start()
  }

  /// Has the SDK send a `track` of `name`.
  func track(_ name: String) throws {
    let line = "{\"method\":\"track\",\"name\":" + JSONText.quoted(name) + ",\"properties\":{}}\n"
    try input.fileHandleForWriting.write(contentsOf: Data(line.utf8))
  }

  var output: String { lines.all.joined() }

  func finishInput() { try? input.fileHandleForWriting.close() }

  func waitForExit() -> Int32 {
    process.waitUntilExit()
    return process.terminationStatus
  }
}
