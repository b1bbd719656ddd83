import Foundation
import NIOCore
import TagscopeFuzzing
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// Seeded passes, bounded by count, over the proxy's connection reuse and `CONNECT` targets (issue
/// 42): random sequences of plain-HTTP requests on one kept-alive connection (SDK batches, other
/// hosts, this machine's addresses, hosts that are none), sent one by one or pipelined, written in
/// random pieces; and random `CONNECT` targets (names in any case with or without the trailing
/// dot, this machine's addresses in every notation, the proxy's own ports, malformed names and
/// ports). Each case asserts what it guarantees: every request is routed by its own target (an
/// SDK batch answered by tagscope with `--no-forward`, forwarded to its own host without; any
/// other host forwarded with the target's Host), nothing reaches loopback, link-local or the
/// proxy's own ports without the opt-in (`403`), a host that is none gets a `400` naming the
/// problem, never a `500`; the vendor gets exactly what was forwarded. A failure names its seed
/// and case.
final class ProxyRoutingFuzzTests: XCTestCase {
  private static let seed: UInt64 = 0x42_0302
  private static let sequences = 120
  private static let targets = 300
  private var directory: URL!

  override func setUp() {
    directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "routing-fuzz-\(UUID().uuidString)")
  }

  override func tearDown() { try? FileManager.default.removeItem(at: directory) }

  /// The names the proxy may reach (all mapped to the local vendor: nothing leaves loopback).
  private static let otherHosts = ["one.test", "two.test", "three.test"]

  private func startProxy(
    forward: Bool, allowsLoopback: Bool = false, resolve: [String: UpstreamAddress]
  ) async throws -> (ListenServer, Collector) {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, forward: forward, authorityDirectory: directory.appendingPathComponent("ca-\(forward)"),
      resolve: resolve)
    configuration.proxy?.allowsLoopbackUpstream = allowsLoopback
    return try await startServer(configuration)
  }

  // MARK: Connection reuse

  /// One request of a sequence and what it must get.
  private enum Step {
    /// A page of another host: forwarded, whatever the mode.
    case other(host: String, id: Int)
    /// A Segment batch: answered by tagscope with `--no-forward`, else forwarded.
    case sdk(id: Int)
    /// This machine's address, in one of its notations: `403`, then the connection closes.
    case local(authority: String)
    /// A host that is none: `400` naming the problem, then the connection closes.
    case bad(authority: String, reason: String)

    /// The request; with `closing`, it asks for the connection's close after its answer.
    func request(closing: Bool) -> String {
      let close = closing ? "Connection: close\r\n" : ""
      switch self {
      case .other(let host, let id):
        return "GET http://\(host)/page-\(id) HTTP/1.1\r\nHost: \(host)\r\n\(close)\r\n"
      case .sdk(let id):
        let body = #"{"writeKey":"wk","batch":[{"type":"track","userId":"u","event":"Case \#(id)"}]}"#
        return "POST http://api.segment.io/v1/batch?case=\(id) HTTP/1.1\r\nHost: api.segment.io\r\n\(close)"
          + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
      case .local(let authority):
        return "GET http://\(authority)/local HTTP/1.1\r\nHost: example.test\r\n\(close)\r\n"
      case .bad(let authority, _):
        return "GET http://\(authority)/bad HTTP/1.1\r\nHost: example.test\r\n\(close)\r\n"
      }
    }

    /// Whether the connection ends after this step's answer.
    var ends: Bool {
      switch self {
      case .other, .sdk: false
      case .local, .bad: true
      }
    }
  }

  private static func sequence(_ random: inout SeededGenerator, next id: inout Int, vendorPort: Int) -> [Step]
  {
    var steps: [Step] = []
    for _ in 0..<Int.random(in: 1...6, using: &random) {
      id += 1
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<4: steps.append(.other(host: otherHosts.randomElement(using: &random)!, id: id))
      case 4..<8: steps.append(.sdk(id: id))
      case 8:
        let authority = [
          "127.0.0.1:\(vendorPort)", "localhost:\(vendorPort)", "[::1]:\(vendorPort)", "127.1:\(vendorPort)",
          "[::ffff:127.0.0.1]:\(vendorPort)", "169.254.169.254", "0.0.0.0:\(vendorPort)",
        ].randomElement(using: &random)!
        steps.append(.local(authority: authority))
      default:
        let (authority, reason) = malformedAuthority(&random)
        steps.append(.bad(authority: authority, reason: reason))
      }
      if steps.last?.ends ?? false { break }
    }
    return steps
  }

  func testEachRequestOnAKeptAliveConnectionIsRoutedByItsOwnTarget() async throws {
    var random = SeededGenerator(seed: Self.seed)
    var id = 0
    for forward in [false, true] {
      let vendor = try await PlainVendorServer.start()
      let mapped = Dictionary(
        uniqueKeysWithValues: (Self.otherHosts + ["api.segment.io"]).map {
          ($0, UpstreamAddress(host: "127.0.0.1", port: vendor.port))
        })
      let (server, collector) = try await startProxy(forward: forward, resolve: mapped)
      var expectedTargets: [String] = []
      var expectedHosts: [String] = []
      var batches = 0
      for index in 0..<Self.sequences {
        let steps = Self.sequence(&random, next: &id, vendorPort: vendor.port)
        let place = "seed \(Self.seed), forward \(forward), case \(index): \(steps)"
        let client = try RawClient(port: server.proxyPort ?? 0, timeout: 30)
        let pipelined = Bool.random(using: &random)
        var replies: [(status: Int, body: String)] = []
        if pipelined {
          // All at once, in random pieces, the last asking for the close: the answers are read to
          // the end of the connection, in order.
          let text = steps.enumerated().map { $1.request(closing: $0 == steps.count - 1) }.joined()
          let bytes = Array(text.utf8)
          let splits = (0..<Int.random(in: 0...3, using: &random)).map { _ in
            Int.random(in: 1..<bytes.count, using: &random)
          }
          XCTAssertTrue(client.send(bytes, splits: Array(Set(splits)).sorted()), place)
          replies = Self.responses(in: client.readAll())
          XCTAssertEqual(replies.count, steps.count, place)
        }
        for (position, step) in steps.enumerated() {
          if !pipelined { client.send(step.request(closing: false)) }
          let reply = pipelined ? (position < replies.count ? replies[position] : nil) : client.readResponse()
          switch step {
          case .other(let host, let id):
            XCTAssertEqual(reply?.status, 200, place)
            XCTAssertEqual(reply?.body, "vendor /page-\(id)", place)
            expectedTargets.append("/page-\(id)")
            expectedHosts.append(host)
          case .sdk(let id):
            XCTAssertEqual(reply?.status, 200, place)
            batches += 1
            if forward {
              XCTAssertEqual(reply?.body, "vendor /v1/batch?case=\(id)", place)
              expectedTargets.append("/v1/batch?case=\(id)")
              expectedHosts.append("api.segment.io")
            } else {
              XCTAssertFalse(reply?.body.hasPrefix("vendor") ?? true, "forwarded with --no-forward: \(place)")
            }
          case .local:
            XCTAssertEqual(reply?.status, 403, place)
            XCTAssertTrue(reply?.body.contains("refused") ?? false, place)
          case .bad(_, let reason):
            XCTAssertEqual(reply?.status, 400, place)
            XCTAssertTrue(reply?.body.contains(reason) ?? false, "\(place): \(String(describing: reply))")
          }
        }
        if !pipelined, steps.last?.ends ?? false { XCTAssertTrue(client.waitForClose(), place) }
      }
      XCTAssertEqual(collector.waitForRecords(batches).count, batches, "forward \(forward)")
      XCTAssertTrue(eventually { vendor.requests.count >= expectedTargets.count })
      XCTAssertEqual(vendor.requests.map(\.target), expectedTargets, "forward \(forward)")
      XCTAssertEqual(vendor.requests.map(\.host), expectedHosts, "forward \(forward)")
      XCTAssertEqual(server.statistics.tunnels, 0)
      try await server.shutdown()
      await vendor.shutdown()
    }
  }

  /// The responses in `bytes`, each framed by its `Content-Length` (every answer here has one).
  private static func responses(in bytes: [UInt8]) -> [(status: Int, body: String)] {
    var replies: [(status: Int, body: String)] = []
    var rest = bytes[...]
    let separator: [UInt8] = Array("\r\n\r\n".utf8)
    while let end = rest.indices.first(where: { rest[$0...].starts(with: separator) }) {
      let head = String(decoding: rest[rest.startIndex..<end], as: UTF8.self).components(separatedBy: "\r\n")
      let parts = head[0].split(separator: " ")
      let length =
        head.dropFirst().first { $0.lowercased().hasPrefix("content-length:") }
        .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
      let bodyStart = end + separator.count
      guard parts.count >= 2, let status = Int(parts[1]), rest.endIndex - bodyStart >= length else { break }
      replies.append((status, String(decoding: rest[bodyStart..<(bodyStart + length)], as: UTF8.self)))
      rest = rest[(bodyStart + length)...]
    }
    return replies
  }

  // MARK: CONNECT targets

  /// One `CONNECT` target and what it must get.
  private enum Target {
    /// The echo host's name (any case, maybe a trailing dot): a tunnel that echoes.
    case echo(String)
    /// This machine, the opt-in aside (`allowed`), or the proxy's own port (never allowed).
    case local(String, allowed: Bool)
    /// No host: `400` naming `reason`.
    case bad(String, reason: String)
  }

  private static func target(
    _ random: inout SeededGenerator, echoPort: Int, ownPorts: [Int], allowsLoopback: Bool
  ) -> Target {
    switch Int.random(in: 0..<3, using: &random) {
    case 0:
      let name = String("echo.test".map { Bool.random(using: &random) ? Character($0.uppercased()) : $0 })
      return .echo(name + (Bool.random(using: &random) ? "." : "") + ":\(echoPort)")
    case 1:
      let own = Bool.random(using: &random)
      let port = own ? ownPorts.randomElement(using: &random)! : echoPort
      // The echo listens on 127.0.0.1: with the opt-in, only notations that reach it are tried;
      // without it, none is connected to (and link-local is never tried with it: not loopback).
      let reaching = [
        "127.0.0.1", "127.1", "2130706433", "localhost", "LOCALHOST.", "[::ffff:127.0.0.1]",
        "[::ffff:7f00:1]",
        "0.0.0.0",
      ]
      let elsewhere = [
        "[::1]", "[64:ff9b::127.0.0.1]", "[::]", "169.254.169.254", "[fe80::1]", "[::ffff:169.254.0.1]",
      ]
      if allowsLoopback && !own {
        return .local(reaching.randomElement(using: &random)! + ":\(port)", allowed: true)
      }
      return .local((reaching + elsewhere).randomElement(using: &random)! + ":\(port)", allowed: false)
    default:
      let (authority, reason) = malformedAuthority(&random)
      return .bad(authority, reason: reason)
    }
  }

  func testEveryConnectTargetIsTunnelledRefusedOrNamedBad() async throws {
    let echo = try await EchoServer.start()
    var random = SeededGenerator(seed: Self.seed &+ 1)
    for allowsLoopback in [false, true] {
      let (server, _) = try await startProxy(
        forward: true, allowsLoopback: allowsLoopback,
        resolve: ["echo.test": UpstreamAddress(host: "127.0.0.1", port: echo.port)])
      let ownPorts = [server.port, server.proxyPort ?? 0]
      var tunnels = 0
      for index in 0..<Self.targets {
        let target = Self.target(
          &random, echoPort: echo.port, ownPorts: ownPorts, allowsLoopback: allowsLoopback)
        let place = "seed \(Self.seed &+ 1), loopback allowed \(allowsLoopback), case \(index): \(target)"
        let authority: String
        switch target {
        case .echo(let text), .local(let text, _), .bad(let text, _): authority = text
        }
        let client = try RawClient(port: server.proxyPort ?? 0, timeout: 30)
        client.send("CONNECT \(authority) HTTP/1.1\r\nHost: \(authority)\r\n\r\n")
        let reply = client.readResponse()
        switch target {
        case .echo, .local(_, allowed: true):
          XCTAssertEqual(reply?.status, 200, place)
          tunnels += 1
          client.send("case \(index)\n")
          XCTAssertEqual(client.readLine(), "case \(index)", place)
        case .local(_, allowed: false):
          XCTAssertEqual(reply?.status, 403, place)
          XCTAssertTrue(reply?.body.contains("refused") ?? false, "\(place): \(String(describing: reply))")
        case .bad(_, let reason):
          XCTAssertEqual(reply?.status, 400, place)
          XCTAssertTrue(reply?.body.contains(reason) ?? false, "\(place): \(String(describing: reply))")
        }
      }
      let probe = try httpRequest(
        port: server.proxyPort ?? 0, method: "GET", path: "/", contentType: nil, body: [])
      XCTAssertEqual(probe?.status, 200, "the proxy still answers")
      XCTAssertEqual(server.statistics.tunnels, tunnels)
      try await server.shutdown()
    }
    try await echo.shutdown()
  }

  // MARK: Hosts that are none

  /// An authority with at least one defect, and words of the problem the `400` must name.
  private static func malformedAuthority(_ random: inout SeededGenerator) -> (String, String) {
    var labels = (0..<Int.random(in: 1...4, using: &random)).map { _ in
      String(
        (0..<Int.random(in: 1...12, using: &random)).map { _ in "abcxyz019-_".randomElement(using: &random)! }
      )
      .trimmingCharacters(in: CharacterSet(charactersIn: "-"))
    }
    labels = labels.map { $0.isEmpty ? "a" : $0 }
    let port = ":\(Int.random(in: 1...65_535, using: &random))"
    let spot = Int.random(in: 0..<labels.count, using: &random)
    switch Int.random(in: 0..<7, using: &random) {
    case 0:
      let length = Int.random(in: 64...240, using: &random)
      labels[spot] = String(repeating: "l", count: length)
      return (labels.joined(separator: ".") + port, "is \(length) characters long (at most 63)")
    case 1:
      labels.insert("", at: spot)
      return (labels.joined(separator: ".") + port, "empty label")
    case 2:
      let filler = Array(repeating: String(repeating: "n", count: 63), count: 4)
      let name = (filler + labels).joined(separator: ".")
      return (name + port, "\(name.count) characters long (at most 253)")
    case 3:
      labels[spot] += String("!*,;=~%".randomElement(using: &random)!)
      return (labels.joined(separator: ".") + port, "a host name has no")
    case 4:
      let bad = ["0", "65536", "99999", "+80", "-1", "", "8o", "123456"].randomElement(using: &random)!
      return (labels.joined(separator: ".") + ":" + bad, "port")
    case 5:
      return (["::1", "fe80::1", "1:2:3::4"].randomElement(using: &random)! + port, "brackets")
    default:
      return ("-" + labels.joined(separator: ".") + port, "starts or ends with -")
    }
  }
}
