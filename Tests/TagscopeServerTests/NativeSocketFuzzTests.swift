import Foundation
import TagscopeFuzzing
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A bounded fuzzing pass (see ``FuzzRun``) against the real `listen` server's native line stream
/// on a real TCP port: recording streams as `RemoteSink` writes them (a header, with or without
/// acknowledgements and a run id, then records, `\n` or `\r\n`, blank keep-alive lines), written in
/// random pieces; then mutated (bytes, lines past the limit, a second header, seqs out of order) and
/// ended by a half-close, a close or a reset part way.
///
/// A well-formed stream gets its acknowledgement of its last seq and every record is taken; any
/// stream half-closed gets only `{"ack":N}` and `{"error":…}` lines back and a close, never silence
/// (a hang guard of 30 s); a normal native stream and an HTTP request after every case are
/// answered; the counters add up; every record taken reads back from the line it is stored as.
final class NativeSocketFuzzTests: XCTestCase {
  /// The longest line the pass's server takes: small, so lines past it are cheap to send.
  private static let lineLimit = 4096

  /// Well-formed streams (with how many records each holds), from `seed`.
  static func streams(seed: UInt64) -> [(bytes: [UInt8], records: Int, acknowledged: Bool)] {
    var random = SeededGenerator(seed: seed)
    return (0..<24).map { index in
      let acknowledged = Bool.random(using: &random)
      let run = Bool.random(using: &random) ? #","run":"fuzz-run-\#(index)""# : ""
      var lines = [
        #"{"format":"tagscope-recording","version":1,"app":"Fuzz","device":"d\#(index)","started":"2026-11-21T10:00:00.000Z"\#(run),"ack":\#(acknowledged)}"#
      ]
      let count = Int.random(in: 1...6, using: &random)
      for seq in 1...count {
        var line = StreamFuzzTests.nativeLines[seq % 2 == 0 ? 1 : 0]
        line = line.replacingOccurrences(of: #""seq":7"#, with: #""seq":\#(seq)"#)
          .replacingOccurrences(of: #""seq":8"#, with: #""seq":\#(seq)"#)
        lines.append(line)
        if Int.random(in: 0..<4, using: &random) == 0 { lines.append("") }
      }
      let separator = Bool.random(using: &random) ? "\n" : "\r\n"
      return (Array((lines.joined(separator: separator) + separator).utf8), count, acknowledged)
    }
  }

  func testTheServerReadsOrRefusesEveryMangledStreamAndStaysUsable() async throws {
    let ingest = CapturingIngest()
    var configuration = ListenConfiguration(host: "127.0.0.1", port: 0)
    configuration.maximumLineBytes = Self.lineLimit
    let server = try await ListenServer.start(configuration: configuration, ingest: ingest)
    let run = FuzzRun(name: "native-socket", share: 1.5, slowInput: .seconds(60))
    let streams = Self.streams(seed: run.seed)
    var fuzz = NativeFuzzState(server: server, ingest: ingest, lineLimit: Self.lineLimit)
    let outcome = run.run(
      corpus: streams.map(\.bytes), maximumLength: 16_384, minimumInputs: streams.count + 100
    ) { input in
      fuzz.cases += 1
      let problem: String?
      if fuzz.cases <= streams.count {
        let stream = streams[fuzz.cases - 1]
        problem = fuzz.wellFormed(input, records: stream.records, acknowledged: stream.acknowledged)
      } else {
        problem = fuzz.mangled(input)
      }
      return problem ?? fuzz.probe()
    }
    // The last case's connection, ended by a close or a reset, may be activated on its event loop
    // after the probe's on another: the pass settles when the server has counted every connection.
    let settled = eventually {
      let statistics = server.statistics
      return statistics.connections == fuzz.connections && statistics.openConnections == 0
        && statistics.accepted == ingest.count
    }
    let statistics = server.statistics
    try await server.shutdown()
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(
      outcome.inputs, streams.count + 100, "at least its minimum, however busy the machine")
    XCTAssertTrue(settled, "connections not settled: \(statistics.summary)")
    XCTAssertEqual(statistics.connections, fuzz.connections, statistics.summary)
    XCTAssertEqual(statistics.accepted, ingest.count, statistics.summary)
    XCTAssertNil(ingest.unreadable(from: 0))
    print("native-socket: \(outcome.inputs) cases; \(statistics.summary)")
  }
}

/// What the native socket pass keeps between cases, and its checks.
struct NativeFuzzState {
  let server: ListenServer
  let ingest: CapturingIngest
  let lineLimit: Int
  var cases = 0
  var connections = 0

  /// A well-formed stream in random pieces: acknowledged up to its last seq when it asked, every
  /// record taken, closed when the client half-closes.
  mutating func wellFormed(_ input: [UInt8], records: Int, acknowledged: Bool) -> String? {
    var random = SeededGenerator(bytes: input, salt: 1)
    let splits = (0..<Int.random(in: 0...8, using: &random)).map { _ in
      Int.random(in: 0...input.count, using: &random)
    }
    let takenBefore = ingest.count
    guard let socket = try? FuzzSocket(port: server.port) else { return "cannot connect" }
    connections += 1
    socket.send(input, splits: splits)
    var received: [UInt8] = []
    if acknowledged {
      let last = Array(#"{"ack":\#(records)}"#.utf8)
      let end = socket.read(into: &received) { Self.lines($0).contains(last) }
      if end != nil {
        return "no acknowledgement of seq \(records): \(String(decoding: received, as: UTF8.self))"
      }
    }
    socket.end(.halfClose)
    guard socket.read(into: &received) != .silent else { return "not closed after the client half-closed" }
    if let problem = Self.replyProblem(received) { return problem }
    guard eventually({ ingest.count - takenBefore >= records }) else {
      return "\(records) records sent, \(ingest.count - takenBefore) taken"
    }
    if ingest.count - takenBefore != records {
      return "\(records) records sent, \(ingest.count - takenBefore) taken"
    }
    guard ingest.records(from: takenBefore).allSatisfy({ $0.source?.hasPrefix("Fuzz@d") ?? false }) else {
      return "records taken under another source: \(ingest.records(from: takenBefore).map(\.source))"
    }
    return ingest.unreadable(from: takenBefore)
  }

  /// A mutated stream, ended at random: half-closed, it gets only acknowledgement and error lines
  /// and a close.
  mutating func mangled(_ input: [UInt8]) -> String? {
    var random = SeededGenerator(bytes: input, salt: 2)
    var bytes = input
    var note = "byte mutations"
    switch Int.random(in: 0..<6, using: &random) {
    case 0:
      let at = Int.random(in: 0...bytes.count, using: &random)
      bytes.insert(contentsOf: [UInt8](repeating: UInt8(ascii: "x"), count: lineLimit + 1) + [10], at: at)
      note = "a line past the limit at \(at)"
    case 1:
      let header = #"{"format":"tagscope-recording","version":1,"app":"Again"}"# + "\n"
      bytes.insert(contentsOf: Array(header.utf8), at: Self.lineStart(in: bytes, using: &random))
      note = "a second header"
    case 2:
      let record =
        #"{"seq":\#(Int.random(in: 0...3, using: &random)),"time":"2026-11-21T10:00:00.000Z","kind":"event","name":"late"}"#
      bytes.insert(contentsOf: Array((record + "\n").utf8), at: Self.lineStart(in: bytes, using: &random))
      note = "a seq out of order"
    default: break
    }
    let splits = (0..<Int.random(in: 0...8, using: &random)).map { _ in
      Int.random(in: 0...bytes.count, using: &random)
    }
    let roll = Int.random(in: 0..<20, using: &random)
    let ending: FuzzSocket.Ending = roll < 14 ? .halfClose : roll < 17 ? .close : .reset
    let described = "\(ending.rawValue) after \(note)"
    let before = server.statistics
    let takenBefore = ingest.count
    guard let socket = try? FuzzSocket(port: server.port) else { return "cannot connect" }
    connections += 1
    guard ending == .halfClose else {
      socket.send(Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))), splits: splits)
      socket.end(ending)
      return nil
    }
    socket.send(bytes, splits: splits)
    socket.end(.halfClose)
    var received: [UInt8] = []
    let end = socket.read(into: &received)
    guard end != .silent else { return "\(described): neither refused nor closed within the hang guard" }
    if end == .closed, let problem = Self.replyProblem(received) { return "\(described): \(problem)" }
    guard eventually({ server.statistics.openConnections == 0 }) else {
      return "\(described): the server kept the connection open"
    }
    // A connection's last records may still be on their way when its count drops (the guard
    // that counts it is the pipeline's first handler): both counts settle.
    let settled = eventually(timeout: 10) {
      server.statistics.accepted - before.accepted == ingest.count - takenBefore
    }
    if !settled {
      return
        "\(described): accepted counted \(server.statistics.accepted - before.accepted), taken \(ingest.count - takenBefore)"
    }
    return ingest.unreadable(from: takenBefore).map { "\(described): \($0)" }
  }

  /// A normal native stream (acknowledged) and a normal HTTP request, each on a new connection.
  mutating func probe() -> String? {
    guard let socket = try? FuzzSocket(port: server.port) else { return "the probe cannot connect" }
    connections += 1
    let name = "native-probe-\(cases)"
    let start = ingest.count
    let stream =
      #"{"format":"tagscope-recording","version":1,"app":"Probe","device":"p","run":"probe-\#(cases)","ack":true}"#
      + "\n" + #"{"seq":1,"time":"2026-11-21T10:00:00.000Z","kind":"event","name":"\#(name)"}"# + "\n"
    socket.send(Array(stream.utf8))
    var received: [UInt8] = []
    guard socket.read(into: &received, until: { Self.lines($0).contains(Array(#"{"ack":1}"#.utf8)) }) == nil
    else {
      return
        "the native probe after this case was not acknowledged: \(String(decoding: received, as: UTF8.self))"
    }
    socket.end(.halfClose)
    _ = socket.read(into: &received)
    guard ingest.records(from: start).contains(where: { $0.name == name }) else {
      return "the native probe was acknowledged but not taken"
    }
    connections += 1
    let body = #"{"type":"track","userId":"probe","event":"http-\#(name)"}"#
    guard (try? httpRequest(port: server.port, path: "/v1/track", body: body))??.status == 200 else {
      return "the HTTP probe after this case was not answered 200"
    }
    return nil
  }

  /// The lines of `bytes` (without their `\n`).
  static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
    bytes.split(separator: 10, omittingEmptySubsequences: true).map(Array.init)
  }

  /// What is wrong with what the server wrote: anything but `{"ack":N}` and `{"error":…}` lines.
  static func replyProblem(_ bytes: [UInt8]) -> String? {
    if let last = bytes.last, last != 10 { return "a reply line cut short" }
    for line in lines(bytes) {
      let text = String(decoding: line, as: UTF8.self)
      let isAck =
        text.hasPrefix(#"{"ack":"#) && text.hasSuffix("}") && UInt64(text.dropFirst(7).dropLast()) != nil
      let isError =
        text.hasPrefix(#"{"error":""#) && text.hasSuffix(#""}"#) && (try? JSONParser.parse(text)) != nil
      if !isAck && !isError { return "the server wrote \(text.prefix(200))" }
    }
    return nil
  }

  private static func lineStart(in bytes: [UInt8], using random: inout SeededGenerator) -> Int {
    let starts = [0] + bytes.indices.filter { bytes[$0] == 10 }.map { $0 + 1 }
    return starts.randomElement(using: &random)!
  }
}
