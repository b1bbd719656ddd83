import Foundation
import XCTest

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A port or address `listen` and `proxy` cannot listen on is said in plain words naming what the
/// user gave (`port 8080 is already in use (tagscope proxy --port 8080)`): no system call, no errno,
/// no stray parenthesis, and the port that failed, not the other one.
final class BindFailureWordsTests: XCTestCase {
  private var directory: URL!
  private var busy: Int32 = -1

  override func setUpWithError() throws {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "bind-words-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
  }

  override func tearDownWithError() throws {
    if busy >= 0 { close(busy) }
    try? FileManager.default.removeItem(at: directory)
  }

  /// A loopback port this test listens on, so that `tagscope` finds it taken.
  private func busyPort() throws -> Int {
    #if canImport(Glibc)
      busy = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      busy = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
        bind(busy, pointer, length) == 0 && listen(busy, 1) == 0 && getsockname(busy, pointer, &length) == 0
      }
    }
    XCTAssertTrue(bound)
    return Int(UInt16(bigEndian: address.sin_port))
  }

  /// Runs `arguments` and asserts one plain line, exit 2: `expected` and nothing of the system call.
  private func assertSays(
    _ arguments: [String], _ expected: String, file: StaticString = #filePath, line: UInt = #line
  ) throws {
    let outcome = try BuiltProducts.run(arguments)
    XCTAssertEqual(outcome.status, 2, outcome.error, file: file, line: line)
    XCTAssertEqual(outcome.error, "tagscope: \(expected)\n", file: file, line: line)
    for word in ["bind(", "errno", "descriptor", "Error"] {
      XCTAssertFalse(outcome.error.contains(word), outcome.error, file: file, line: line)
    }
    let opening = outcome.error.filter { $0 == "(" }.count
    XCTAssertEqual(opening, outcome.error.filter { $0 == ")" }.count, outcome.error, file: file, line: line)
  }

  func testABusyPortIsNamedWithTheOptionThatGaveIt() throws {
    let port = try busyPort()
    let ca = directory.appendingPathComponent("ca").path
    try assertSays(
      ["listen", "--headless", "--port", "\(port)"],
      "port \(port) is already in use (tagscope listen --port \(port))")
    // Only the proxy's port is busy: that one is named, not listen's.
    try assertSays(
      ["proxy", "--headless", "--port", "0", "--proxy-port", "\(port)", "--ca-dir", ca],
      "port \(port) is already in use (tagscope proxy --proxy-port \(port))")
    try assertSays(
      ["proxy", "--headless", "--port", "\(port)", "--proxy-port", "0", "--ca-dir", ca],
      "port \(port) is already in use (tagscope proxy --port \(port))")
  }

  func testAnAddressNotOfThisMachineIsNamedWithBind() throws {
    // 192.0.2.1 is a documentation address (TEST-NET-1): no interface has it, nothing is sent.
    try assertSays(
      ["listen", "--headless", "--bind", "192.0.2.1", "--port", "0", "--token", "T"],
      "192.0.2.1 is not an address of this machine (tagscope listen --bind 192.0.2.1)")
  }
}
