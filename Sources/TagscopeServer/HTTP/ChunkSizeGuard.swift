import NIOCore
import NIOHTTP1

/// Reads the raw bytes of an HTTP connection ahead of NIO's request decoder to see the sizes a
/// chunked body declares: a chunk size past the request's limit (its SDK endpoint's body limit,
/// else the server's `limit`; `ffffffffffffffff`, or one the decoder would reject as overflowing),
/// or chunks adding up past it, fires ``ChunkSizeGuard/TooLarge`` at once
/// (the ingest handler answers as for a `Content-Length` over the limit: 413, or the vendor's
/// status) instead of the connection waiting for bytes that will never come. Everything before
/// that point is passed on unchanged, nothing after it. Anything it does not follow (a head past
/// ``headLimit``, an upgrade) it lets through unwatched.
final class ChunkSizeGuard: ChannelInboundHandler, RemovableChannelHandler {
  typealias InboundIn = ByteBuffer
  typealias InboundOut = ByteBuffer

  /// The error fired when a chunked body declares more than the limit.
  struct TooLarge: Error, Equatable {
    /// The size declared, `nil` when it does not fit 64 bits.
    var declared: UInt64?
  }

  /// Bytes of a request head (or a chunk-size line, or trailers) followed at most.
  static let headLimit = 64 * 1024

  private enum State {
    /// In a request head (or a chunked body's trailers), these bytes read so far.
    case head([UInt8])
    case trailers([UInt8])
    /// In a body of known length, this many bytes left.
    case fixed(remaining: Int)
    /// In a chunk-size line, its bytes so far; `total` declared before it.
    case chunkSize([UInt8], total: UInt64)
    /// In a chunk's data (and its CRLF), this many bytes left.
    case chunkData(remaining: UInt64, total: UInt64)
    /// Not followed any more.
    case unwatched
    /// Refused: nothing more is passed on.
    case refused
  }

  private let limit: Int
  /// The body limit of the request a request line names, `nil` for ``limit``.
  private let endpointLimit: (Substring) -> Int?
  /// The limit of the request being read: its endpoint's body limit when lower than ``limit``.
  private var requestLimit: Int
  private var state = State.head([])

  /// A guard holding chunked bodies to `limit`, or to the lower limit `endpointLimit` finds for a
  /// request line (by default its SDK endpoint's, as `listen` routes it).
  init(limit: Int, endpointLimit: @escaping (Substring) -> Int? = ChunkSizeGuard.endpointLimit(requestLine:))
  {
    self.limit = limit
    self.endpointLimit = endpointLimit
    requestLimit = limit
  }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    let buffer = unwrapInboundIn(data)
    switch state {
    case .unwatched:
      context.fireChannelRead(data)
      return
    case .refused:
      return
    default: break
    }
    let bytes = buffer.readableBytesView
    var index = bytes.startIndex
    var refusal: TooLarge?
    while index < bytes.endIndex, refusal == nil {
      index = step(bytes, from: index, refusal: &refusal)
      if case .unwatched = state { break }
    }
    guard let refusal else {
      context.fireChannelRead(data)
      return
    }
    // What came before the refused size line goes on (the request head), then the refusal.
    let passed = bytes.distance(from: bytes.startIndex, to: index)
    if passed > 0, let before = buffer.getSlice(at: buffer.readerIndex, length: passed) {
      context.fireChannelRead(wrapInboundOut(before))
    }
    state = .refused
    context.fireErrorCaught(refusal)
  }

  /// Reads from `index` on in the current state; returns where it stopped. On a refused size,
  /// `refusal` is set and the index returned is the size line's start.
  private func step(_ bytes: ByteBufferView, from index: Int, refusal: inout TooLarge?) -> Int {
    switch state {
    case .head(var head), .trailers(var head):
      let isTrailers = if case .trailers = state { true } else { false }
      var position = index
      while position < bytes.endIndex {
        head.append(bytes[position])
        position += 1
        if isTrailers && head == [13, 10] {
          state = .head([])
          return position
        }
        if head.count >= 4 && head.suffix(4).elementsEqual([13, 10, 13, 10]) {
          state = isTrailers ? .head([]) : body(after: head)
          return position
        }
        if head.count > Self.headLimit {
          state = .unwatched
          return position
        }
      }
      state = isTrailers ? .trailers(head) : .head(head)
      return position
    case .fixed(let remaining):
      let taken = min(remaining, bytes.endIndex - index)
      state = remaining - taken == 0 ? .head([]) : .fixed(remaining: remaining - taken)
      return index + taken
    case .chunkSize(var line, let total):
      var position = index
      while position < bytes.endIndex {
        line.append(bytes[position])
        position += 1
        if line.count > Self.headLimit {
          state = .unwatched
          return position
        }
        guard line.last == 10 else { continue }
        switch Self.chunkSize(line) {
        case .invalid:
          // The decoder refuses it (400).
          state = .unwatched
        case .overflow:
          refusal = TooLarge(declared: nil)
          // The line's bytes in this read start where this call started.
          return index
        case .size(let size):
          let (sum, overflow) = total.addingReportingOverflow(size)
          guard !overflow, sum <= UInt64(requestLimit) else {
            refusal = TooLarge(declared: size)
            return index
          }
          state = size == 0 ? .trailers([]) : .chunkData(remaining: size + 2, total: sum)
        }
        return position
      }
      state = .chunkSize(line, total: total)
      return position
    case .chunkData(let remaining, let total):
      let taken = min(remaining, UInt64(bytes.endIndex - index))
      state =
        remaining - taken == 0
        ? .chunkSize([], total: total) : .chunkData(remaining: remaining - taken, total: total)
      return index + Int(taken)
    case .unwatched, .refused:
      return bytes.endIndex
    }
  }

  /// The state after a request head: its body's framing (and the request's limit).
  private func body(after head: [UInt8]) -> State {
    let original = String(decoding: head, as: UTF8.self)
    requestLimit = min(limit, endpointLimit(original.prefix { !$0.isNewline }) ?? limit)
    let text = original.lowercased()
    var chunked = false
    var length: Int?
    for line in text.split(separator: "\r\n").dropFirst() {
      guard let colon = line.firstIndex(of: ":") else { continue }
      let name = String(line[..<colon].filter { $0 != " " && $0 != "\t" })
      let value = String(line[line.index(after: colon)...].filter { $0 != " " && $0 != "\t" })
      if name == "transfer-encoding" && value.contains("chunked") { chunked = true }
      if name == "content-length" { length = Int(value) }
      if name == "upgrade" { return .unwatched }
    }
    if chunked { return .chunkSize([], total: 0) }
    if let length, length > 0 { return .fixed(remaining: length) }
    return .head([])
  }

  /// The body limit of the SDK endpoint a request line (`POST /v1/batch HTTP/1.1`) names, as the
  /// ingest handler routes it; `nil` for anything else.
  static func endpointLimit(requestLine: Substring) -> Int? {
    let parts = requestLine.split(separator: " ")
    guard parts.count >= 2 else { return nil }
    let route = EndpointRouter.route(
      method: HTTPMethod(rawValue: String(parts[0])), path: RequestTarget(String(parts[1])).path)
    guard case .endpoint(let endpoint) = route else { return nil }
    return endpoint.bodyLimit
  }

  /// What a chunk-size line declares.
  enum ChunkSize: Equatable {
    case size(UInt64)
    /// Hexadecimal digits past 64 bits.
    case overflow
    /// No hexadecimal digit first.
    case invalid
  }

  /// The size a chunk-size line (`1a;ext=x\r\n`) declares.
  static func chunkSize(_ line: [UInt8]) -> ChunkSize {
    var size: UInt64 = 0
    var digits = 0
    for byte in line {
      let value: UInt64
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): value = UInt64(byte - UInt8(ascii: "0"))
      case UInt8(ascii: "a")...UInt8(ascii: "f"): value = UInt64(byte - UInt8(ascii: "a") + 10)
      case UInt8(ascii: "A")...UInt8(ascii: "F"): value = UInt64(byte - UInt8(ascii: "A") + 10)
      default:
        return digits > 0 ? .size(size) : .invalid
      }
      digits += 1
      guard size >> 60 == 0 else { return .overflow }
      size = size << 4 | value
    }
    return digits > 0 ? .size(size) : .invalid
  }
}
