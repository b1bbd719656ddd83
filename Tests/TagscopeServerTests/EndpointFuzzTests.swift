import Foundation
import NIOCore
import NIOHTTP1
import TagscopeFuzzing
import TagscopeRecording
import XCTest

@testable import TagscopeServer

/// A bounded fuzzing pass (see ``FuzzRun``) over every SDK event route `listen` serves, in every
/// request form and content encoding it takes (``EndpointFuzzCorpus``): JSON, `text/plain`,
/// form-encoded `data=` (JSON or base64), gzip and deflate bodies undone by the decompressor
/// `listen` uses, GET query strings. Each input is either refused (and then nothing of it is taken)
/// or every event it yields becomes a record that a replay reads back unchanged; JSON replies stay
/// JSON; no input is slow. The passes share `TAGSCOPE_FUZZ_SECONDS` (a few seconds in all).
final class EndpointFuzzTests: XCTestCase {
  /// Every route's passes together take about this many times `TAGSCOPE_FUZZ_SECONDS`.
  private static let totalShare = 6.0

  /// The listed routes, with the path a request uses (`KEY` and `MPID` filled in).
  private static var routes: [(listed: String, path: String)] {
    ListenEndpoints.eventPaths.map {
      (
        $0.path,
        $0.path.replacingOccurrences(of: "KEY", with: "us1-abc").replacingOccurrences(
          of: "MPID", with: "6008681217290486000")
      )
    }
  }

  func testEveryRouteHasACorpusInEveryForm() {
    let listed = Set(Self.routes.map(\.listed))
    for route in Self.routes {
      XCTAssertFalse(
        EndpointFuzzCorpus.forms[route.listed]?.isEmpty ?? true,
        "\(route.listed) has no fuzzing corpus: add its SDK's request forms to EndpointFuzzCorpus")
    }
    XCTAssertEqual(Set(EndpointFuzzCorpus.forms.keys).subtracting(listed), [], "a corpus for no route")
    // Each seed is taken as it is: a corpus of refused requests would fuzz only the refusal.
    for route in Self.routes {
      for form in EndpointFuzzCorpus.forms[route.listed] ?? [] {
        for seed in form.seeds {
          guard let reply = Self.reply(route.path, form, Array(seed.utf8)) else {
            XCTFail("\(route.listed) \(form.carrier): the seed does not decompress")
            continue
          }
          XCTAssertNil(reply.rejection, "\(route.listed) \(form.carrier): \(seed.prefix(80)) → \(reply.body)")
          XCTAssertFalse(reply.events.isEmpty, "\(route.listed) \(form.carrier): \(seed.prefix(80))")
        }
      }
    }
  }

  func testEveryRouteInEveryFormTakesOnlyWhatReadsBack() {
    let passes = Self.routes.reduce(0) { $0 + (EndpointFuzzCorpus.forms[$1.listed]?.count ?? 0) }
    var inputs = 0
    for route in Self.routes {
      for form in EndpointFuzzCorpus.forms[route.listed] ?? [] {
        let name = "\(route.listed)-\(form.carrier)".replacingOccurrences(of: "/", with: "_")
        let outcome = FuzzRun(name: name, share: Self.totalShare / Double(passes)).run(
          corpus: form.seeds.map { Array($0.utf8) }, maximumLength: 16_384, minimumInputs: 40
        ) { input in
          guard let reply = Self.reply(route.path, form, input) else {
            return "a body compressed by the test does not decompress to itself"
          }
          return Self.problem(reply)
        }
        XCTAssertNil(outcome.failure)
        inputs += outcome.inputs
      }
    }
    XCTAssertGreaterThanOrEqual(inputs, passes * 40)
  }

  /// Compressed bodies as SDKs send them (the system's gzip), mutated as compressed bytes: the
  /// decompressor refuses or decodes within its limit, and what it decodes is decoded as above.
  func testMangledCompressedBodiesAreRefusedOrRead() throws {
    let seeds = try (EndpointFuzzCorpus.segmentBatch + EndpointFuzzCorpus.batch).map {
      try gzip(Array($0.utf8))
    }
    let limit = 64 * 1024
    let outcome = FuzzRun(name: "gzip-bytes", share: 0.5).run(
      corpus: seeds,
      dictionary: Mutator.jsonTokens + [[0x1F, 0x8B, 0x08], [0x00, 0x00, 0xFF, 0xFF], [0x03, 0x00]],
      minimumInputs: 100
    ) { input in
      var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/v1/batch")
      head.headers.add(name: "Content-Type", value: "application/json")
      head.headers.add(name: "Content-Encoding", value: "gzip")
      switch BodyDecompression.decode(head: head, body: ByteBuffer(bytes: input), limit: limit) {
      case .failed, .tooLarge: return nil
      case .unsupported(let encoding): return "gzip called unsupported (\(encoding))"
      case .decoded(let body):
        if body.count > limit { return "decoded \(body.count) bytes past the limit of \(limit)" }
        let request = ReceivedRequest(
          method: .POST, path: "/v1/batch", query: [], headers: head.headers, body: body,
          peerHost: "127.0.0.1")
        return Self.problem(SegmentEndpoint(impliedType: nil).handle(request))
      }
    }
    XCTAssertNil(outcome.failure)
    XCTAssertGreaterThanOrEqual(outcome.inputs, 100)
  }

  /// The endpoint's reply to `input` carried by `form` at `path`, or `nil` when a body the test
  /// compressed does not decompress to `input`.
  static func reply(_ path: String, _ form: FuzzForm, _ input: [UInt8]) -> SDKReply? {
    var headers = HTTPHeaders()
    if let authorization = form.authorization { headers.add(name: "Authorization", value: authorization) }
    var method = HTTPMethod.POST
    var query = form.query
    var body = input
    switch form.carrier {
    case .json: headers.add(name: "Content-Type", value: "application/json")
    case .textPlain: headers.add(name: "Content-Type", value: "text/plain")
    case .form: headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
    case .gzip, .deflate:
      headers.add(name: "Content-Type", value: "application/json")
      headers.add(name: "Content-Encoding", value: form.carrier.rawValue)
      let compressed = form.carrier == .gzip ? StoredDeflate.gzip(input) : StoredDeflate.zlib(input)
      let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path, headers: headers)
      guard
        case .decoded(let decoded) = BodyDecompression.decode(
          head: head, body: ByteBuffer(bytes: compressed), limit: 1 << 20), decoded == input
      else { return nil }
      body = decoded
    case .getQuery, .postQuery:
      method = form.carrier == .getQuery ? .GET : .POST
      query += FormDecoding.pairs(String(decoding: input, as: UTF8.self))
      body = []
    }
    guard case .endpoint(let endpoint) = EndpointRouter.route(method: method, path: path, query: query) else {
      return SDKReply(status: .notFound, body: "not routed", rejection: .unknownEndpoint)
    }
    return endpoint.handle(
      ReceivedRequest(
        method: method, path: path, query: query, headers: headers, body: body, peerHost: "127.0.0.1"))
  }

  /// What is wrong with `reply`: events taken from a refused request, a JSON reply that is not
  /// JSON, or an event whose record a replay does not read back as it was written.
  static func problem(_ reply: SDKReply) -> String? {
    if reply.rejection != nil && !reply.events.isEmpty {
      return "refused (\(reply.status.code)) yet took \(reply.events.count) events"
    }
    // A streamed JSON reply (Adobe Edge's: a record separator, the JSON, a line feed) is its record.
    var json = Substring(reply.body)
    if json.first == "\u{0}", json.last == "\n" { json = json.dropFirst().dropLast() }
    if reply.contentType == "application/json" && !json.isEmpty
      && (try? JSONParser.parse(String(json))) == nil
    {
      return "a JSON reply that is not JSON: \(reply.body.prefix(300))"
    }
    var devices = DeviceRegistry(limit: 8)
    for (index, event) in reply.events.enumerated() {
      let placement = devices.place(event, address: "127.0.0.1")
      let record = RecordMaker.record(
        event, seq: UInt64(index + 1), source: placement.source, context: placement.context,
        received: Date(timeIntervalSince1970: 1_795_255_204))
      let line = RecordLineEncoder.line(record)
      guard case .record(let read)? = try? RecordLineDecoder.decode(line) else {
        return "event \(index) is recorded as a line a replay cannot read: \(line.prefix(300))"
      }
      guard read == record else { return "event \(index) reads back differently: \(line.prefix(300))" }
    }
    return nil
  }
}
