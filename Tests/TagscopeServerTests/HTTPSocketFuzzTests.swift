import Foundation
import TagscopeFuzzing
import TagscopeRecording
import TagscopeTestSupport
import XCTest

@testable import TagscopeServer

/// A bounded fuzzing pass (see ``FuzzRun``) against the real `listen` server on a real TCP port,
/// through its HTTP framing (`ChunkSizeGuard`, NIO's decoder, `HTTPIngestHandler`): the SDK
/// requests of ``EndpointFuzzCorpus`` framed every way clients frame them and pipelined, written in
/// pieces at random split points; then mangled — bytes mutated, chunk sizes, extensions and
/// trailers broken, CRLFs missing, lengths conflicting or impossible, unknown encodings,
/// `Expect: 100-continue` — and ended by a half-close, a close or a reset part way.
///
/// Each well-formed request gets its `2xx`; each mangled stream gets well-framed responses, each
/// counted, and a close, never silence (a hang guard of 30 s) or a reset, and the server counts why
/// it closed; a normal probe request after every case is answered and recorded; the counters add up (every connection
/// closed, `httpRequests` as many as the responses read, `accepted` as many as the records taken);
/// every record taken reads back from its line. A failure names the pass's seed and the file its
/// input was saved to: the case's split points and ending follow from the input's bytes.
final class HTTPSocketFuzzTests: XCTestCase {
  func testTheServerAnswersOrClosesEveryMangledStreamAndStaysUsable() async throws {
    let ingest = CapturingIngest()
    let server = try await ListenServer.start(
      configuration: ListenConfiguration(host: "127.0.0.1", port: 0), ingest: ingest)
    let run = FuzzRun(name: "http-socket", share: 2.5, slowInput: .seconds(60))
    let pipelines = HTTPFuzzStreams.pipelines(seed: run.seed)
    var fuzz = SocketFuzzState(server: server, ingest: ingest)
    let outcome = run.run(
      corpus: pipelines.map(\.bytes), dictionary: HTTPFuzzStreams.tokens, maximumLength: 16_384,
      minimumInputs: pipelines.count + 100
    ) { input in
      fuzz.cases += 1
      let problem: String?
      if fuzz.cases <= pipelines.count {
        problem = fuzz.wellFormed(input, requests: pipelines[fuzz.cases - 1].requests)
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
      outcome.inputs, pipelines.count + 100, "at least its minimum, however busy the machine")
    XCTAssertTrue(settled, "connections not settled: \(statistics.summary)")
    XCTAssertEqual(statistics.connections, fuzz.connections, statistics.summary)
    XCTAssertEqual(statistics.accepted, ingest.count, statistics.summary)
    XCTAssertGreaterThanOrEqual(statistics.httpRequests, fuzz.responses)
    XCTAssertNil(ingest.unreadable(from: 0))
    print("http-socket: \(outcome.inputs) cases, \(fuzz.abrupt) ended abruptly; \(statistics.summary)")
  }
}

/// What the HTTP socket pass keeps between cases, and its checks.
struct SocketFuzzState {
  let server: ListenServer
  let ingest: CapturingIngest
  var cases = 0
  /// Connections the pass opened (cases and probes).
  var connections = 0
  /// Final responses read.
  var responses = 0
  /// Cases ended by a close or reset part way (their responses are not read).
  var abrupt = 0

  init(server: ListenServer, ingest: CapturingIngest) {
    self.server = server
    self.ingest = ingest
  }

  /// A well-formed pipeline of `requests` requests, written in random pieces: each gets a `2xx`,
  /// then a probe on the same connection does, then the server closes when the client does.
  mutating func wellFormed(_ input: [UInt8], requests: Int) -> String? {
    var random = SeededGenerator(bytes: input, salt: 1)
    let splits = (0..<Int.random(in: 0...8, using: &random)).map { _ in
      Int.random(in: 0...input.count, using: &random)
    }
    let before = server.statistics
    let takenBefore = ingest.count
    guard let socket = try? FuzzSocket(port: server.port) else { return "cannot connect" }
    connections += 1
    socket.send(input, splits: splits)
    var received: [UInt8] = []
    let end = socket.read(into: &received) { HTTPResponseStream($0).statuses.count >= requests }
    let replies = HTTPResponseStream(received)
    if let problem = replies.problem { return "well-formed pipeline: \(problem)" }
    guard end == nil else {
      return
        "well-formed pipeline of \(requests): \(replies.statuses) then \(end == .silent ? "silence" : "a close")"
    }
    guard replies.statuses.allSatisfy({ (200..<300).contains($0) }) else {
      return "well-formed pipeline answered \(replies.statuses)"
    }
    socket.send(Array(probeRequest("same-connection-\(cases)").utf8))
    received = []
    guard socket.read(into: &received, until: { HTTPResponseStream($0).statuses.count >= 1 }) == nil,
      HTTPResponseStream(received).statuses == [200]
    else { return "the probe after a well-formed pipeline, on its connection, was not answered 200" }
    socket.end(.halfClose)
    received = []
    guard socket.read(into: &received) == .closed else { return "not closed after the client half-closed" }
    responses += requests + 1
    guard eventually({ server.statistics.openConnections == 0 }) else {
      return "the server kept the connection open"
    }
    let after = server.statistics
    if after.httpRequests - before.httpRequests != requests + 1 {
      return "\(requests + 1) answered, \(after.httpRequests - before.httpRequests) counted"
    }
    if after.accepted - before.accepted < requests + 1 {
      return "\(requests + 1) requests, each with events, took \(after.accepted - before.accepted) records"
    }
    return ingest.unreadable(from: takenBefore)
  }

  /// A mangled stream, ended at random: half-closed, it gets well-framed responses and a close with
  /// its reason counted; closed or reset part way, the server just carries on.
  mutating func mangled(_ input: [UInt8]) -> String? {
    var random = SeededGenerator(bytes: input, salt: 2)
    var bytes = input
    var notes: [String] = []
    for _ in 0..<Int.random(in: 0...2, using: &random) { notes.append(Self.mangle(&bytes, using: &random)) }
    let splits = (0..<Int.random(in: 0...8, using: &random)).map { _ in
      Int.random(in: 0...bytes.count, using: &random)
    }
    let roll = Int.random(in: 0..<20, using: &random)
    let ending: FuzzSocket.Ending = roll < 14 ? .halfClose : roll < 17 ? .close : .reset
    let described =
      "\(ending.rawValue) after \(notes.isEmpty ? "byte mutations" : notes.joined(separator: ", ")) of "
      + String(decoding: bytes.prefix(1_500), as: UTF8.self).debugDescription
    // The cases before are settled (a connection ended abruptly may not even be accepted yet, and
    // then answer a request it had sent whole), so what the server counts is this case's alone. The
    // snapshot is taken when every record counted was also taken: a late record of an earlier case
    // is counted just before it is handed on, and a snapshot between the two would blame this case.
    let opened = connections
    var before = server.statistics
    var takenBefore = ingest.count
    let quiet = eventually {
      before = server.statistics
      takenBefore = ingest.count
      return before.connections == opened && before.openConnections == 0 && before.accepted == takenBefore
    }
    guard quiet else { return "\(described): a connection of an earlier case still open or not accepted" }
    guard let socket = try? FuzzSocket(port: server.port) else { return "cannot connect" }
    connections += 1
    guard ending == .halfClose else {
      abrupt += 1
      socket.send(Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &random))), splits: splits)
      socket.end(ending)
      return nil
    }
    socket.send(bytes, splits: splits)
    socket.end(.halfClose)
    var received: [UInt8] = []
    let end = socket.read(into: &received)
    guard end != .silent else { return "\(described): neither answered nor closed within the hang guard" }
    // A stream that does not start with a method's capital is not HTTP to the server: it is read
    // as a native stream (`{`, whitespace) or refused.
    guard let first = bytes.first, (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) else {
      return NativeFuzzState.replyProblem(received).map { "\(described): \($0)" }
    }
    let replies = HTTPResponseStream(received, headRequests: HTTPResponseStream.headRequests(in: bytes))
    responses += replies.statuses.count
    if let problem = replies.problem { return "\(described): \(problem)" }
    if replies.incomplete > 0, end == .closed {
      return "\(described): a response cut short: "
        + String(decoding: received.suffix(replies.incomplete), as: UTF8.self).debugDescription
    }
    if let failed = replies.statuses.first(where: { $0 >= 500 && $0 != 503 }) {
      return "\(described): answered \(failed)"
    }
    guard eventually({ server.statistics.openConnections == 0 }) else {
      return "\(described): the server kept the connection open"
    }
    let after = server.statistics
    let counted = after.httpRequests - before.httpRequests
    // Never a reset: a close with the client's bytes still unread lingers (`LingeringClose`)
    // rather than resetting the connection and losing what was written last; and every response
    // read is counted, and nothing else is (a request of an earlier case decoded after its
    // connection closed is taken but its reply, which reaches no one, is not counted).
    if end == .reset { return "\(described): the server reset the connection" }
    if counted != replies.statuses.count {
      return "\(described): \(replies.statuses.count) responses read, \(counted) counted; read "
        + String(decoding: received.prefix(600), as: UTF8.self).debugDescription
    }
    let reasons =
      after.truncated - before.truncated + after.totalRejected - before.totalRejected + after.totalTimeouts
      - before.totalTimeouts
    if replies.statuses.isEmpty, end == .closed, reasons == 0 {
      return "\(described): closed without an answer and without a reason counted"
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

  /// A normal request on a new connection: answered `200`, its record taken.
  mutating func probe() -> String? {
    let name = "probe-\(cases)"
    let start = ingest.count
    guard let socket = try? FuzzSocket(port: server.port) else { return "the probe cannot connect" }
    connections += 1
    socket.send(Array(probeRequest(name).utf8))
    var received: [UInt8] = []
    _ = socket.read(into: &received) { HTTPResponseStream($0).statuses.count >= 1 }
    let replies = HTTPResponseStream(received)
    guard replies.statuses == [200] else {
      return "the probe after this case got \(replies.statuses) \(replies.problem ?? "")"
    }
    responses += 1
    socket.end(.halfClose)
    _ = socket.read(into: &received)
    guard eventually({ ingest.records(from: start).contains { $0.name == name } }) else {
      return "the probe after this case was answered but not recorded"
    }
    return nil
  }

  private func probeRequest(_ name: String) -> String {
    let body = #"{"type":"track","userId":"probe","event":"\#(name)"}"#
    return "POST /v1/track HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
      + "Content-Length: \(body.utf8.count)\r\n\r\n" + body
  }

  /// Applies one mangling to `bytes` at a place `random` picks; returns what it did.
  static func mangle(_ bytes: inout [UInt8], using random: inout SeededGenerator) -> String {
    let crlf: [UInt8] = [13, 10]
    let headEnds = positions(of: [13, 10, 13, 10], in: bytes)
    let lineEnds = positions(of: crlf, in: bytes)
    switch Int.random(in: 0..<5, using: &random) {
    case 0 where !headEnds.isEmpty:
      let header = HTTPFuzzStreams.mangledHeaders.randomElement(using: &random)!
      bytes.insert(contentsOf: crlf + Array(header.utf8), at: headEnds.randomElement(using: &random)!)
      return "header \(header.prefix(40))"
    case 1:
      // A chunk-size line: hexadecimal digits (and an extension) between two CRLFs.
      let sizeLines = zip(lineEnds, lineEnds.dropFirst()).filter { start, end in
        end > start + 2 && bytes[(start + 2)..<end].first.map { Self.isHex($0) } ?? false
          && bytes[(start + 2)..<end].allSatisfy { Self.isHex($0) || $0 == UInt8(ascii: ";") || $0 == 0x3D }
      }
      guard let (start, end) = sizeLines.randomElement(using: &random) else { return "nothing (no chunk)" }
      let size = HTTPFuzzStreams.mangledSizes.randomElement(using: &random)!
      bytes.replaceSubrange((start + 2)..<end, with: Array(size.utf8))
      return "chunk size \(size.debugDescription)"
    case 2 where !lineEnds.isEmpty:
      let at = lineEnds.randomElement(using: &random)!
      let replacement: [[UInt8]] = [[], [10], [13], [10, 13], [13, 13, 10]]
      let chosen = replacement.randomElement(using: &random)!
      bytes.replaceSubrange(at..<(at + 2), with: chosen)
      return "CRLF at \(at) as \(chosen)"
    case 3:
      let cut = Int.random(in: 0...bytes.count, using: &random)
      bytes.removeSubrange(cut...)
      return "cut at \(cut)"
    default:
      let trailers = ["X-T: 1\r\n", "bad trailer\r\n", "Content-Length: 5\r\n", "\r\n\r\n", "X-T: \u{0}\r\n"]
      let ends = positions(of: Array("0\r\n".utf8), in: bytes)
      guard let at = ends.randomElement(using: &random) else { return "nothing (no last chunk)" }
      let trailer = trailers.randomElement(using: &random)!
      bytes.insert(contentsOf: Array(trailer.utf8), at: at + 3)
      return "trailer \(trailer.debugDescription)"
    }
  }

  private static func isHex(_ byte: UInt8) -> Bool {
    (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
      || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
  }

  private static func positions(of needle: [UInt8], in bytes: [UInt8]) -> [Int] {
    guard bytes.count >= needle.count else { return [] }
    return (0...(bytes.count - needle.count)).filter { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
  }
}
