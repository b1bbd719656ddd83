import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression
import TagscopeFuzzing
import XCTest

@testable import TagscopeServer

/// The proxy's one-pass inflater (``BodyDecompression``, through ``ZlibInflate``) gives what
/// `listen`'s decompressor (SwiftNIO's `NIOHTTPRequestDecompressor`, which it replaced for the
/// endpoint decoders) gives for the same body and limit: the same bytes, or the same refusal.
final class ZlibInflateTests: XCTestCase {
  /// What a decompressor gave, comparable.
  private enum Result: Equatable {
    case decoded([UInt8])
    case tooLarge
    case failed
  }

  private func ours(_ body: [UInt8], encoding: String, limit: Int) -> Result {
    var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/a")
    head.headers.add(name: "Content-Encoding", value: encoding)
    switch BodyDecompression.decode(head: head, body: ByteBuffer(bytes: body), limit: limit) {
    case .decoded(let bytes): return .decoded(bytes)
    case .tooLarge: return .tooLarge
    case .failed, .unsupported: return .failed
    }
  }

  /// `listen`'s decompressor in an embedded channel, as `BodyDecompression` used it before.
  private func listens(_ body: [UInt8], encoding: String, limit: Int) -> Result {
    var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/a")
    head.headers.add(name: "Content-Encoding", value: encoding)
    let channel = EmbeddedChannel(handler: NIOHTTPRequestDecompressor(limit: .size(limit)))
    defer { _ = try? channel.finish() }
    var decoded: [UInt8] = []
    do {
      try channel.writeInbound(HTTPServerRequestPart.head(head))
      try channel.writeInbound(HTTPServerRequestPart.body(ByteBuffer(bytes: body)))
      try channel.writeInbound(HTTPServerRequestPart.end(nil))
      while let part = try channel.readInbound(as: HTTPServerRequestPart.self) {
        if case .body(let chunk) = part { decoded += chunk.readableBytesView }
      }
    } catch let error as NIOHTTPDecompression.DecompressionError where error == .limit {
      return .tooLarge
    } catch {
      return .failed
    }
    return .decoded(decoded)
  }

  private func assertSame(
    _ body: [UInt8], encoding: String = "gzip", limit: Int, _ message: String, file: StaticString = #filePath,
    line: UInt = #line
  ) -> Result {
    let result = ours(body, encoding: encoding, limit: limit)
    XCTAssertEqual(result, listens(body, encoding: encoding, limit: limit), message, file: file, line: line)
    return result
  }

  /// Text that compresses as SDK batches do, `count` bytes of it.
  private func text(_ count: Int) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = 0
    while bytes.count < count {
      bytes += Array("{\"event\":\"screen_view\",\"n\":\(index),\"t\":\(index * 7919 % 100_003)}\n".utf8)
      index += 1
    }
    return Array(bytes.prefix(count))
  }

  func testWellFormedBodiesGiveTheSameBytes() throws {
    for size in [0, 1, 1_000, 70_000, 1_500_000] {
      let body = text(size)
      let zipped = try gzip(body)
      XCTAssertEqual(assertSame(zipped, limit: 4 << 20, "gzip of \(size)"), .decoded(body))
      // Either format whatever the header says, as listen's decompressor takes it.
      XCTAssertEqual(
        assertSame(zipped, encoding: "deflate", limit: 4 << 20, "gzip called deflate"), .decoded(body))
      XCTAssertEqual(
        assertSame(StoredDeflate.zlib(body), encoding: "deflate", limit: 4 << 20, "zlib of \(size)"),
        .decoded(body))
      XCTAssertEqual(assertSame(StoredDeflate.zlib(body), limit: 4 << 20, "zlib called gzip"), .decoded(body))
    }
  }

  /// A compressed zlib stream (no stated size) that inflates past its first buffer many times over
  /// goes on into the next buffers to its end (zlib is asked to finish in each: it then keeps a
  /// window only when the stream goes on); cut short, it is refused; past the limit, too large.
  func testACompressedStreamWithoutItsSizeFillsBufferAfterBuffer() throws {
    let body = Array(String(repeating: "{\"event\":\"screen_view\"}\n", count: 60_000).utf8)
    let zipped = try gzip(body)
    // The same deflate data in zlib's frame: a header, then the Adler-32 of the body.
    var (a, b): (UInt32, UInt32) = (1, 0)
    for byte in body {
      a = (a + UInt32(byte)) % 65_521
      b = (b + a) % 65_521
    }
    let zlib =
      [0x78, 0x9c] + zipped[10..<(zipped.count - 8)]
      + withUnsafeBytes(of: (b << 16 | a).bigEndian, Array.init)
    XCTAssertLessThan(
      zlib.count * 4, body.count / 8, "compressed enough to fill the first buffer eight times")
    XCTAssertEqual(assertSame(zlib, encoding: "deflate", limit: 4 << 20, "zlib, compressed"), .decoded(body))
    XCTAssertEqual(assertSame(Array(zlib.dropLast(5)), encoding: "deflate", limit: 4 << 20, "cut"), .failed)
    XCTAssertEqual(
      assertSame(zlib, encoding: "deflate", limit: body.count - 1, "one byte too many"), .tooLarge)
  }

  /// A body exactly at the limit once inflated is taken; one byte more is too large, whether the
  /// size is stated (gzip) or not (zlib), and a bomb is stopped at the limit.
  func testTheLimitIsTheInflatedSize() throws {
    let body = text(100_000)
    for compressed in [try gzip(body), StoredDeflate.zlib(body)] {
      XCTAssertEqual(assertSame(compressed, limit: 100_000, "at the limit"), .decoded(body))
      XCTAssertEqual(assertSame(compressed, limit: 99_999, "one byte past"), .tooLarge)
    }
    let bomb = try gzip([UInt8](repeating: 0, count: 8 << 20))
    XCTAssertEqual(assertSame(bomb, limit: 1 << 20, "a bomb"), .tooLarge)
  }

  /// Cut short, followed by more bytes or a second member, a trailer that disagrees, not gzip at
  /// all, or empty: refused alike.
  func testBrokenBodiesAreRefusedAlike() throws {
    let body = text(50_000)
    let zipped = try gzip(body)
    for cut in [1, 9, 10, 11, zipped.count / 2, zipped.count - 8, zipped.count - 1] {
      XCTAssertEqual(assertSame(Array(zipped.prefix(cut)), limit: 1 << 20, "cut at \(cut)"), .failed)
    }
    XCTAssertEqual(assertSame(zipped + [0], limit: 1 << 20, "a byte after"), .failed)
    XCTAssertEqual(assertSame(zipped + zipped, limit: 1 << 20, "two members"), .failed)
    var lying = zipped
    lying[lying.count - 4] ^= 0x01
    XCTAssertEqual(assertSame(lying, limit: 1 << 20, "a trailer's size that disagrees"), .failed)
    var bigger = zipped
    bigger.replaceSubrange((bigger.count - 4)..., with: [0xff, 0xff, 0xff, 0x7f])
    XCTAssertEqual(assertSame(bigger, limit: 1 << 20, "a trailer's size past the limit"), .failed)
    XCTAssertEqual(assertSame(body, limit: 1 << 20, "not compressed"), .failed)
    XCTAssertEqual(assertSame([], limit: 1 << 20, "empty"), .failed)
  }

  /// Bodies mutated byte by byte (a fixed seed) give the same bytes or refusal from both; a body
  /// both past the limit and broken further on may be called either (each stops at what it meets
  /// first, in buffers of different sizes), and is then checked to be broken.
  func testMutatedBodiesGiveTheSameOutcome() throws {
    let seeds = [
      try gzip(text(20_000)), StoredDeflate.zlib(text(3_000)), try gzip(Array(repeating: 7, count: 300_000)),
    ]
    var generator = SeededGenerator(seed: 45)
    var outcomes: [String: Int] = [:]
    for round in 0..<600 {
      var body = seeds[round % seeds.count]
      for _ in 0...(round % 4) {
        // A gzip header's time, flags and system (bytes 4 to 9) are not read: such a body decodes.
        let headerOnly = body[0] == 0x1f && round % 5 == 0
        let at = headerOnly ? 4 + Int(generator.next() % 6) : Int(generator.next() % UInt64(body.count))
        switch headerOnly ? 0 : generator.next() % 3 {
        case 0: body[at] = UInt8(truncatingIfNeeded: generator.next())
        case 1: body.removeSubrange(at...)
        default: body.insert(UInt8(truncatingIfNeeded: generator.next()), at: at)
        }
        if body.isEmpty { break }
      }
      let result = ours(body, encoding: "gzip", limit: 200_000)
      let expected = listens(body, encoding: "gzip", limit: 200_000)
      if result != expected {
        XCTAssertEqual([result, expected].filter { $0 != .tooLarge && $0 != .failed }, [], "round \(round)")
        XCTAssertEqual(listens(body, encoding: "gzip", limit: 1 << 30), .failed, "round \(round)")
      }
      switch result {
      case .decoded: outcomes["decoded", default: 0] += 1
      case .tooLarge: outcomes["too large", default: 0] += 1
      case .failed: outcomes["failed", default: 0] += 1
      }
    }
    // The mutations reach every outcome.
    XCTAssertEqual(outcomes.count, 3, "\(outcomes)")
  }
}
