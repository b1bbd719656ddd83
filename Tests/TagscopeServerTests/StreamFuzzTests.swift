import AnalyticsHub
import Foundation
import NIOCore
import NIOEmbedded
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// Bounded fuzzing passes (see ``FuzzRun``) over `listen`'s other decoders: the native stream's
/// line framing and the line each record is stored as, the Firebase debug log parser, and the
/// proxy's request-target and authority parsers. No input crashes or is slow, and what is taken
/// is read back as it was taken.
final class StreamFuzzTests: XCTestCase {
  /// Native lines as `RemoteSink` and `tagscope listen` write them (DESIGN.md's record, a drop
  /// marker, a header).
  static let nativeLines = [
    #"{"seq":7,"time":"2026-11-21T10:00:04.210Z","kind":"userAction","name":"playPodcast","properties":{"podcast_title":"Swift by Sundell","podcast_duration":1830},"context":{"screen":"favorites","history":["podcasts","podcastPlayer","favorites"],"session":{"id":"s-1","state":"authenticated","user":"u-42","properties":{"voiceOver":true}}},"outputs":[{"provider":"firebase","status":"sent","calls":[{"method":"logEvent","name":"play_podcast_from_favorites","parameters":{"podcast_title":"Swift by Sundell","podcast_duration":1830}}]},{"provider":"piano","status":"dropped"},{"provider":"braze","status":"blocked","reason":"consent"}]}"#,
    #"{"seq":8,"time":"2026-11-21T10:00:05.000Z","kind":"screen","name":"podcasts","source":"old","run":"x"}"#,
    #"{"dropped":3,"time":"2026-11-21T10:00:06.000Z","afterSeq":8,"by":"sink"}"#,
    #"{"format":"tagscope-recording","version":1,"app":"Podcasts","device":"iPhone 15 (sim)","started":"2026-11-21T10:00:00.000Z","run":"r","ack":true}"#,
  ]

  /// A native record line is stored as it arrived with `source` and `run` added: the stored line
  /// reads back as the record read, with that source and run.
  func testANativeLineIsStoredAsARecordThatReadsBack() {
    let suffix = StoredSuffix(source: "Podcasts@iPhone", run: "run-1")
    let outcome = FuzzRun(name: "native-line", share: 0.5).run(
      corpus: Self.nativeLines.map { Array($0.utf8) }, minimumInputs: 200
    ) { input in
      guard !input.contains(UInt8(ascii: "\n")) else { return nil }  // the framing splits there
      guard case .record(var record)? = try? RecordLineDecoder.decode(input) else { return nil }
      record.source = "Podcasts@iPhone"
      record.extra["run"] = .string("run-1")
      let stored = NativeStreamHandler.storedLine(ByteBuffer(bytes: input), suffix: suffix)
      guard stored.last == UInt8(ascii: "\n"),
        case .record(let read)? = try? RecordLineDecoder.decode(stored.dropLast())
      else {
        return
          "a record line stored as one that does not read: \(String(decoding: stored.prefix(300), as: UTF8.self))"
      }
      return read == record
        ? nil : "stored differently: \(String(decoding: stored.prefix(300), as: UTF8.self))"
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(outcome.inputs, 200)
  }

  /// The framing passes on every line (without `\n` or `\r\n`; a last line without `\n` as it is)
  /// in any split of the stream, and refuses a line past its limit rather than holding it.
  func testLineFramingSplitsAnyStreamIntoItsLines() throws {
    let limit = 200
    let corpus = [
      Self.nativeLines.joined(separator: "\n"), "a\r\nb\n\n\rc\r",
      "{}\n" + String(repeating: "x", count: 300),
    ]
    .map { Array($0.utf8) }
    let outcome = FuzzRun(name: "line-framing", share: 0.5).run(corpus: corpus, minimumInputs: 200) { input in
      let channel = EmbeddedChannel(handler: ByteToMessageHandler(LineFrameDecoder(maximumLength: limit)))
      var lines: [[UInt8]] = []
      var refused = false
      // Split where the input says: each byte's low bits give the next piece's length.
      var start = 0
      while start < input.count && !refused {
        let end = min(input.count, start + 1 + Int(input[start] & 0x3F))
        do { try channel.writeInbound(ByteBuffer(bytes: input[start..<end])) } catch { refused = true }
        while let line = try? channel.readInbound(as: ByteBuffer.self) {
          lines.append(Array(line.readableBytesView))
        }
        start = end
      }
      if !refused {
        do { _ = try channel.finish() } catch { refused = true }
        while let line = try? channel.readInbound(as: ByteBuffer.self) {
          lines.append(Array(line.readableBytesView))
        }
      }
      // Each line ended by `\n` without its `\r`; the last one, unended, as it is.
      let pieces = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
      var expected = pieces.dropLast().map { line in
        Array(line.last == UInt8(ascii: "\r") ? line.dropLast() : line)
      }
      expected.append(Array(pieces.last ?? []))
      if expected.last?.isEmpty ?? false { expected.removeLast() }
      let tooLong = pieces.contains { $0.count > limit }
      if refused != tooLong {
        return refused ? "refused with no line over \(limit) bytes" : "took a line over \(limit)"
      }
      if refused {
        return Array(expected.prefix(lines.count)) == lines
          ? nil : "lines before the refusal differ: \(lines)"
      }
      return lines == expected ? nil : "read \(lines.count) lines, not \(expected.count)"
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(outcome.inputs, 200)
  }

  /// The real debug logs of `Tests/Fixtures/firebase-log`, mutated: every entry becomes a record a
  /// replay reads back, every problem names a line that was read.
  func testFirebaseLogLinesBecomeRecordsThatReadBack() throws {
    let directory = FirebaseLogParserTests.fixtures
    let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter {
      $0.hasSuffix(".txt")
    }.sorted()
    XCTAssertGreaterThan(files.count, 4)
    let corpus = try files.map { Array(try Data(contentsOf: directory.appendingPathComponent($0))) }
    let tokens = [
      "{", "}", "(", ")", ";", " = ", "\"", "\\", "\n", "    ", "Logging event: origin, name, params: ",
      "app", "_sn", "<private>", "1e999", "-0", "\u{1B}[",
    ].map { Array($0.utf8) }
    let outcome = FuzzRun(name: "firebase-log", share: 0.5).run(
      corpus: corpus, dictionary: tokens + Mutator.jsonTokens, maximumLength: 16_384, minimumInputs: 100
    ) { input in
      var parser = FirebaseLogParser()
      var items: [FirebaseLogItem] = []
      for line in String(decoding: input, as: UTF8.self).split(
        separator: "\n", omittingEmptySubsequences: false)
      {
        items += parser.feed(line)
      }
      items += parser.finish()
      for (index, item) in items.enumerated() {
        switch item {
        case .problem(let problem):
          guard (1...max(parser.lineNumber, 1)).contains(problem.line), !problem.message.isEmpty else {
            return "a problem at line \(problem.line) of \(parser.lineNumber): \(problem.message)"
          }
        case .entry(let entry):
          let event = FirebaseLogRecords.ingested(entry, input: "fuzz.log")
          let record = RecordMaker.record(
            event, seq: UInt64(index + 1), source: "fuzz.log", context: RecordContext(),
            received: Date(timeIntervalSince1970: 1_795_255_204))
          let line = RecordLineEncoder.line(record)
          guard case .record(let read)? = try? RecordLineDecoder.decode(line), read == record else {
            return "entry \(index) is recorded as a line that does not read back: \(line.prefix(300))"
          }
        }
      }
      return nil
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(outcome.inputs, 100)
  }

  /// Request targets and `CONNECT` authorities as clients of the proxy send them: a host is a
  /// lowercase DNS name or IP address of at most 253 characters, a port within 1…65535, an origin
  /// form starts with `/` once parsed from an absolute form, and an authority reads back from its
  /// own text.
  func testRequestTargetsAndAuthoritiesParseToWellFormedParts() {
    let corpus = [
      "http://api.segment.io/v1/batch?writeKey=k", "https://API2.amplitude.com:443/2/httpapi",
      "http://[::1]:8080/track?data=e30%3D", "/com.snowplowanalytics.snowplow/tp2", "/i?e=pv&p=web",
      "api.mixpanel.com:443", "[2001:db8::1]:8443", "http://user@host/", "HTTP://x:0/", "*",
    ].map { Array($0.utf8) }
    let tokens = [
      "://", "//", ":", "[", "]", "@", "%", "%2F", "?", "#", "/", "65535", "65536", "0", "-1", "::", ".", "é",
    ]
    .map { Array($0.utf8) }
    let outcome = FuzzRun(name: "request-target", share: 0.5).run(
      corpus: corpus, dictionary: tokens, maximumLength: 1024, minimumInputs: 300
    ) { input in
      let text = String(decoding: input, as: UTF8.self)
      let target = RequestTarget(text)
      if let problem = Self.problem(host: target.host, port: target.port) {
        return "target \(text): \(problem)"
      }
      if target.scheme != nil, !target.originForm.hasPrefix("/") {
        return "target \(text): origin form \(target.originForm)"
      }
      guard target.originForm.hasPrefix(target.path) else { return "target \(text): path \(target.path)" }
      _ = target.query
      guard let authority = Authority(text, defaultPort: 443) else { return nil }
      if let problem = Self.problem(host: authority.host, port: authority.port) {
        return "authority \(text): \(problem)"
      }
      let written =
        authority.host.contains(":")
        ? "[\(authority.host)]:\(authority.port)" : "\(authority.host):\(authority.port)"
      return Authority(written, defaultPort: nil) == authority
        ? nil : "authority \(text) reads back differently"
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(outcome.inputs, 300)
  }

  private static func problem(host: String?, port: Int?) -> String? {
    if let host {
      let allowed = host.allSatisfy {
        $0.isASCII && ($0.isNumber || ($0.isLetter && $0.isLowercase) || "-._:".contains($0))
      }
      if host.isEmpty || host.count > 253 || !allowed { return "host \(host)" }
    }
    if let port, !(1...65_535).contains(port) { return "port \(port)" }
    return nil
  }
}
