import Foundation
import NIOCore
import NIOHTTP1
import TagscopeInspector
import TagscopeRecording
import TagscopeTestSupport
import TagscopeTimeline
import XCTest

@testable import TagscopeServer

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Collects everything a real server delivers, thread-safely, and waits for it.
final class Collector: @unchecked Sendable {
  private let lock = NSLock()
  private var storedEvents: [ListenEvent] = []

  func receive(_ event: ListenEvent) {
    lock.lock()
    storedEvents.append(event)
    lock.unlock()
  }

  var events: [ListenEvent] {
    lock.lock()
    defer { lock.unlock() }
    return storedEvents
  }

  var records: [Record] {
    events.flatMap { event -> [Record] in
      if case .records(let records) = event { return records }
      return []
    }
  }

  /// Waits until at least `count` records arrived (or the hang guard of ``eventually`` ends the
  /// wait); returns the records.
  @discardableResult
  func waitForRecords(_ count: Int) -> [Record] {
    eventually { records.count >= count }
    return records
  }
}

/// A real server on a free loopback port with a collector as its consumer.
func startServer(_ configuration: ListenConfiguration = ListenConfiguration(port: 0)) async throws -> (
  ListenServer, Collector
) {
  var configuration = configuration
  configuration.port = 0
  configuration.host = "127.0.0.1"
  let collector = Collector()
  let server = try await ListenServer.start(configuration: configuration) { collector.receive($0) }
  return (server, collector)
}

/// The package root (for `scripts/` and `.venv/`).
let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()

/// Runs `scripts/sdk-clients/NAME.py 127.0.0.1 PORT ARGUMENTS…` with the venv's Python; skips the
/// test, loudly, when the venv is missing.
func runSDKClient(_ name: String, port: Int, arguments: [String] = []) throws -> (
  status: Int32, output: String
) {
  var environment = ProcessInfo.processInfo.environment
  environment["POSTHOG_DISABLED"] = nil
  environment["NO_PROXY"] = "*"
  environment["no_proxy"] = "*"
  return try runPython(
    "scripts/sdk-clients/\(name).py", arguments: ["127.0.0.1", String(port)] + arguments,
    environment: environment)
}

/// Runs `scripts/sdk-clients/proxy_client.py ARGUMENTS…` with its HTTP(S) traffic sent through
/// the proxy at `proxyPort` and `caFile` (the proxy's CA) trusted, as a device set up for the
/// proxy would: its output (`STATUS VENDOR BODY`).
func runProxyClient(_ arguments: [String], proxyPort: Int, caFile: String) throws -> (
  status: Int32, output: String
) {
  var environment = ProcessInfo.processInfo.environment
  for name in ["NO_PROXY", "no_proxy", "POSTHOG_DISABLED"] { environment[name] = nil }
  for name in ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"] {
    environment[name] = "http://127.0.0.1:\(proxyPort)"
  }
  environment["REQUESTS_CA_BUNDLE"] = caFile
  environment["SSL_CERT_FILE"] = caFile
  return try runPython("scripts/sdk-clients/proxy_client.py", arguments: arguments, environment: environment)
}

/// Runs `SCRIPT ARGUMENTS…` (a path under the package root) with the venv's Python in
/// `environment` under a ``HangGuard`` of `hangGuard` seconds; skips the test when the venv is
/// missing.
func runPython(
  _ script: String, arguments: [String], environment: [String: String],
  hangGuard: TimeInterval = HangGuard.defaultSeconds
) throws -> (
  status: Int32, output: String
) {
  let python = packageRoot.appendingPathComponent(".venv/bin/python")
  guard FileManager.default.isExecutableFile(atPath: python.path) else {
    let message =
      "!!! SKIPPING \(script): \(python.path) is missing. Create it with: scripts/test (or "
      + "python3 -m venv .venv && .venv/bin/pip install -r scripts/sdk-clients/requirements.txt)"
    print(message)
    throw XCTSkip(message)
  }
  let process = Process()
  process.executableURL = python
  process.arguments = [packageRoot.appendingPathComponent(script).path] + arguments
  process.environment = environment
  return try runToEnd(process, hangGuard: hangGuard)
}

/// `bytes` compressed by the system's gzip (no name, no time stamp: the same bytes every run).
func gzip(_ bytes: [UInt8]) throws -> [UInt8] {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", "exec gzip -c -n"]
  let input = Pipe()
  let output = Pipe()
  process.standardInput = input
  process.standardOutput = output
  try process.run()
  input.fileHandleForWriting.write(Data(bytes))
  try input.fileHandleForWriting.close()
  let data = output.fileHandleForReading.readDataToEndOfFile()
  process.waitUntilExit()
  return Array(data)
}

/// What the SDK endpoint at `path` answers to a POST of `body` from 127.0.0.1 (eagerly, or as the
/// server does, `lazily`), without a server; `nil`, and a failure, when no endpoint is there.
func endpointReply(
  _ path: String, body: String, query: [(name: String, value: String)] = [],
  contentType: String = "application/json", authorization: String? = nil, lazily: Bool = false,
  file: StaticString = #filePath, line: UInt = #line
) -> SDKReply? {
  guard case .endpoint(let endpoint) = EndpointRouter.route(method: .POST, path: path) else {
    XCTFail("no endpoint at \(path)", file: file, line: line)
    return nil
  }
  var headers = HTTPHeaders()
  headers.add(name: "Content-Type", value: contentType)
  if let authorization { headers.add(name: "Authorization", value: authorization) }
  let request = ReceivedRequest(
    method: .POST, path: path, query: query, headers: headers, body: Array(body.utf8), peerHost: "127.0.0.1")
  return lazily ? endpoint.handleLazily(request) : endpoint.handle(request)
}
