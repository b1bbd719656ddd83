import Foundation
import TagscopeFuzzing

@testable import TagscopeServer

/// Byte streams of HTTP requests for the socket-level fuzzing pass: every SDK request of
/// ``EndpointFuzzCorpus`` framed as clients frame them (a `Content-Length`, or chunks of any size
/// with extensions and trailers; `Expect: 100-continue`; header names in any case), pipelined, and
/// the framing then mangled (sizes, extensions, trailers, missing CRLFs, conflicting or impossible
/// lengths, unknown encodings).
enum HTTPFuzzStreams {
  /// One SDK request: its route's path, its form and the seed it carries.
  struct Item {
    var path: String
    var form: FuzzForm
    var seed: String
  }

  /// Every seed of every form of every listed route.
  static var items: [Item] {
    ListenEndpoints.eventPaths.flatMap { endpoint -> [Item] in
      let path = endpoint.path.replacingOccurrences(of: "KEY", with: "us1-abc")
        .replacingOccurrences(of: "MPID", with: "6008681217290486000")
      return (EndpointFuzzCorpus.forms[endpoint.path] ?? []).flatMap { form in
        form.seeds.map { Item(path: path, form: form, seed: $0) }
      }
    }
  }

  /// Well-formed pipelines of one to four requests covering every item, framed at random (from
  /// `seed`), with how many requests each holds.
  static func pipelines(seed: UInt64) -> [(bytes: [UInt8], requests: Int)] {
    var random = SeededGenerator(seed: seed)
    var pending = items
    var pipelines: [(bytes: [UInt8], requests: Int)] = []
    while !pending.isEmpty {
      let count = min(pending.count, Int.random(in: 1...4, using: &random))
      let bytes = pending.prefix(count).flatMap { request($0, using: &random) }
      pipelines.append((bytes, count))
      pending.removeFirst(count)
    }
    return pipelines
  }

  /// `item` as one request on the wire, framed at random.
  static func request(_ item: Item, using random: inout SeededGenerator) -> [UInt8] {
    var method = "POST"
    var query = item.form.query.map { "\(percent($0.name))=\(percent($0.value))" }.joined(separator: "&")
    var body = Array(item.seed.utf8)
    var headers: [String] = ["Host: 127.0.0.1"]
    if let authorization = item.form.authorization { headers.append("Authorization: \(authorization)") }
    switch item.form.carrier {
    case .json: headers.append("Content-Type: application/json")
    case .textPlain: headers.append("Content-Type: text/plain;charset=UTF-8")
    case .form: headers.append("Content-Type: application/x-www-form-urlencoded")
    case .gzip, .deflate:
      headers.append("Content-Type: application/json")
      headers.append("Content-Encoding: \(item.form.carrier.rawValue)")
      body = item.form.carrier == .gzip ? StoredDeflate.gzip(body) : StoredDeflate.zlib(body)
    case .getQuery, .postQuery:
      method = item.form.carrier == .getQuery ? "GET" : "POST"
      query += (query.isEmpty ? "" : "&") + item.seed
      body = []
    }
    if Bool.random(using: &random) { headers.append("User-Agent: analytics-python/2.3.3") }
    if !body.isEmpty, Int.random(in: 0..<4, using: &random) == 0 { headers.append("Expect: 100-continue") }
    headers = headers.map { anyCase($0, using: &random) }
    var framed: [UInt8]
    if body.isEmpty && method == "GET" {
      framed = []
    } else if Bool.random(using: &random) {
      headers.append("Content-Length: \(body.count)")
      framed = body
    } else {
      headers.append("Transfer-Encoding: chunked")
      framed = chunked(body, using: &random)
    }
    headers.shuffle(using: &random)
    let target = item.path + (query.isEmpty ? "" : "?" + query)
    let head = "\(method) \(target) HTTP/1.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n"
    return Array(head.utf8) + framed
  }

  /// `body` as chunks of random sizes, some with extensions, the last one with trailers or not.
  private static func chunked(_ body: [UInt8], using random: inout SeededGenerator) -> [UInt8] {
    var out: [UInt8] = []
    var start = 0
    while start < body.count {
      let end = min(body.count, start + Int.random(in: 1...max(1, body.count / 2 + 1), using: &random))
      var size = String(end - start, radix: 16)
      if Bool.random(using: &random) { size = size.uppercased() }
      let extensions = ["", "", ";ext", ";name=value", #";q="a b""#]
      out +=
        Array((size + extensions.randomElement(using: &random)! + "\r\n").utf8) + body[start..<end] + [
          13, 10,
        ]
      start = end
    }
    out += Array("0\r\n".utf8)
    if Bool.random(using: &random) { out += Array("X-Checksum: 1\r\n".utf8) }
    return out + [13, 10]
  }

  /// `header` with its name in lowercase, uppercase or as it is.
  private static func anyCase(_ header: String, using random: inout SeededGenerator) -> String {
    guard let colon = header.firstIndex(of: ":") else { return header }
    let name = header[..<colon]
    let rest = header[colon...]
    switch Int.random(in: 0..<3, using: &random) {
    case 0: return name.lowercased() + rest
    case 1: return name.uppercased() + rest
    default: return header
    }
  }

  private static func percent(_ text: String) -> String {
    text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
  }

  /// Tokens for the byte mutator: HTTP syntax and framing.
  static let tokens: [[UInt8]] =
    [
      "\r\n", "\r\n\r\n", "\n", "\r", " ", ":", ";", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "GET ", "POST ",
      "HEAD ",
      "OPTIONS ", "Content-Length: ", "Transfer-Encoding: chunked\r\n", "0\r\n\r\n", "ffffffffffffffff",
      ";ext=1", "Expect: 100-continue\r\n", "Content-Encoding: gzip\r\n", "Connection: close\r\n",
      "Host: x\r\n", "%00", "%", "?", "/", "*",
    ].map { Array($0.utf8) } + Mutator.jsonTokens

  /// Header lines a mangled request gains: conflicting, duplicated, impossible or unknown.
  static let mangledHeaders: [String] = [
    "Content-Length: 0", "Content-Length: 5", "Content-Length: -1", "Content-Length: 9223372036854775808",
    "Content-Length: 99999999999999999999999", "Content-Length: 1e3", "Content-Length: 0x10",
    "Content-Length: 5, 5", "Content-Length: 5, 6", "Content-Length: +5", "Transfer-Encoding: chunked",
    "Transfer-Encoding: identity", "Transfer-Encoding: gzip, chunked", "Transfer-Encoding: chunked, gzip",
    "Transfer-Encoding: xchunked", "Transfer-Encoding : chunked", "Expect: 100-continue", "Expect: 200-ok",
    "Content-Encoding: br", "Content-Encoding: gzip", "Content-Encoding: deflate",
    "Content-Encoding: gzip, deflate", "Content-Encoding: GZIP", "Content-Encoding:",
    "Content-Type: application/json; charset=utf-16", "Host: evil.example", "Host:", "Connection: close",
    "Connection: upgrade\r\nUpgrade: websocket", "X-Folded: a\r\n b", "X-Nul: a\u{0}b", "X-Ctl: \u{1}\u{7F}",
    "Authorization: Basic !!!", "X-Long: " + String(repeating: "a", count: 70_000),
  ]

  /// What a chunk-size line becomes when mangled.
  static let mangledSizes = [
    "ffffffffffffffff", "1ffffffffffffffff", "-1", "+5", " 5", "5 ", "0x5", "zz", "", "00000000000000000001",
    "5;", #"5;a="b"#, "5\n", "1000001", "0;", "0\r\n0",
  ]
}

/// The responses a server sent on one connection, read from its bytes.
struct HTTPResponseStream {
  /// The status of each final response, in order.
  var statuses: [Int] = []
  /// `100 Continue` and other interim responses.
  var interim = 0
  /// What is wrong with the bytes (not HTTP/1.x responses framed by `Content-Length`), if anything.
  var problem: String?
  /// Bytes after the last complete response (a response cut short).
  var incomplete = 0

  /// Reads `bytes`; up to `headRequests` responses (those to `HEAD` requests) may have a length
  /// and no body: one whose body would start with a status line, or is not there at all.
  init(_ bytes: [UInt8], headRequests: Int = 0) {
    var bodiless = headRequests
    var offset = 0
    while offset < bytes.count {
      guard let headEnd = Self.find([13, 10, 13, 10], in: bytes, from: offset) else {
        incomplete = bytes.count - offset
        return
      }
      let head = String(decoding: bytes[offset..<headEnd], as: UTF8.self)
      let lines = head.components(separatedBy: "\r\n")
      let parts = lines[0].split(separator: " ", maxSplits: 2)
      guard parts.count >= 2, parts[0] == "HTTP/1.1" || parts[0] == "HTTP/1.0", let status = Int(parts[1]),
        (100...599).contains(status)
      else {
        problem = "not a status line: \(lines[0].prefix(80))"
        return
      }
      offset = headEnd + 4
      if (100..<200).contains(status) {
        interim += 1
        continue
      }
      let lengths = lines.dropFirst().filter { $0.lowercased().hasPrefix("content-length:") }
      // 204 and 304 have no body, and NIO writes no length for them.
      if lengths.isEmpty, status == 204 || status == 304 {
        statuses.append(status)
        continue
      }
      guard lengths.count == 1,
        let length = Int(lengths[0].dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
      else {
        problem = "a \(status) response without one Content-Length"
        return
      }
      if bodiless > 0, length > 0,
        offset == bytes.count || bytes[offset...].starts(with: Self.statusLineStart)
      {
        bodiless -= 1
        statuses.append(status)
        continue
      }
      guard bytes.count - offset >= length else {
        incomplete = bytes.count - headEnd
        return
      }
      statuses.append(status)
      offset += length
    }
  }

  /// How many requests in `stream` could be `HEAD` requests: `HEAD ` at its start or a line's.
  static func headRequests(in stream: [UInt8]) -> Int {
    let method = Array("HEAD ".utf8)
    return stream.indices.filter { index in
      (index == 0 || stream[index - 1] == 10) && stream[index...].starts(with: method)
    }.count
  }

  private static let statusLineStart = Array("HTTP/1.".utf8)

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard bytes.count >= needle.count, start <= bytes.count - needle.count else { return nil }
    for index in start...(bytes.count - needle.count)
    where bytes[index..<(index + needle.count)].elementsEqual(needle) {
      return index
    }
    return nil
  }
}
