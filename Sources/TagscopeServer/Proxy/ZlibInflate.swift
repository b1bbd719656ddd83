import CTagscopeZlib

/// One gzip or zlib stream inflated in one pass through the system zlib, as `listen`'s decompressor
/// (SwiftNIO's, over the same zlib) takes a body: either format whatever `Content-Encoding` says,
/// exactly one stream with nothing after it, refused when cut short or past `limit` once inflated.
/// The output goes into one buffer sized from the gzip trailer's ISIZE when that is plausible (the
/// usual case: no copy, no slack), else into buffers that double, joined once at the end.
enum ZlibInflate {
  /// The most a deflate stream inflates per byte (RFC 1951: a 258-byte match in about 2 bits).
  private static let largestRatio = 1_032
  /// The first buffer when the size is not known: this many times the input, at least 16 KiB.
  private static let guessRatio = 4
  private static let smallestGuess = 16 * 1024
  /// The output room zlib's fast decoder needs left (`inflate_fast`: a longest match, 258 bytes);
  /// with less it decodes a symbol at a time, several times slower.
  private static let fastDecoderRoom = 258

  /// `input` inflated, at most `limit` bytes of it.
  static func inflate(_ input: UnsafeRawBufferPointer, limit: Int) -> BodyDecompression.Outcome {
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
      stream.deinitialize(count: 1)
      stream.deallocate()
    }
    // 15 + 32: a window of up to 32 KiB, gzip or zlib told by the header (as SwiftNIO's).
    guard tagscope_inflate_init2(stream, 15 + 32) == Z_OK else { return .failed }
    defer { inflateEnd(stream) }
    stream.pointee.next_in = UnsafeMutablePointer(
      mutating: (input.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!).assumingMemoryBound(to: Bytef.self))
    stream.pointee.avail_in = UInt32(input.count)
    // The parts are gathered only past the first: an upload inflates into one (an array of parts
    // made for each was an allocation more a body).
    var first: [UInt8]? = nil
    var parts: [[UInt8]] = []
    var total = 0
    var capacity = min(
      limit + 1, expectedSize(input, limit: limit) ?? max(smallestGuess, input.count * guessRatio))
    while true {
      var status = Z_OK
      let part = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
        stream.pointee.next_out = buffer.baseAddress
        stream.pointee.avail_out = UInt32(buffer.count)
        // Z_FINISH: a stream that ends in this buffer keeps no sliding window (zlib otherwise
        // allocates 32 KiB and copies the output into it); one that does not goes on as with
        // Z_NO_FLUSH.
        status = CTagscopeZlib.inflate(stream, Z_FINISH)
        count = buffer.count - Int(stream.pointee.avail_out)
      }
      total += part.count
      guard total <= limit else { return .tooLarge }
      if first == nil && parts.isEmpty {
        first = part
      } else {
        if let only = first {
          parts.append(only)
          first = nil
        }
        parts.append(part)
      }
      switch status {
      case Z_STREAM_END:
        // Bytes after the stream (a second gzip member, say) are refused, as listen refuses them.
        guard stream.pointee.avail_in == 0 else { return .failed }
        if let first { return .decoded(trimmed(first, total: total)) }
        return .decoded(joined(parts, total: total))
      case Z_OK where stream.pointee.avail_out == 0, Z_BUF_ERROR where stream.pointee.avail_out == 0:
        // Full, more to come: double, up to one byte past the limit (which tells a body too large).
        capacity = max(1, min(total, limit + 1 - total))
      default:
        // An error, or the input spent before the stream's end.
        return .failed
      }
    }
  }

  /// The inflated size a gzip trailer states (ISIZE, the size modulo 2³²), when `input` is gzip
  /// and the size is within `limit` and what deflate can give for `input`'s length; else `nil`.
  private static func expectedSize(_ input: UnsafeRawBufferPointer, limit: Int) -> Int? {
    // A gzip member is at least a 10-byte header and an 8-byte trailer.
    guard input.count >= 18, input[0] == 0x1f, input[1] == 0x8b else { return nil }
    let size = input.loadUnaligned(fromByteOffset: input.count - 4, as: UInt32.self).littleEndian
    let stated = Int(size)
    guard stated <= limit, stated <= input.count * largestRatio else { return nil }
    // One byte more tells a stream that ends exactly there from one that goes on; the slack
    // past it keeps zlib's fast decoder (which needs room for a longest match) to the end.
    return stated + 1 + fastDecoderRoom
  }

  /// One part as the output: itself when it holds little slack, else copied at its size.
  private static func trimmed(_ part: [UInt8], total: Int) -> [UInt8] {
    part.capacity - total <= slack(total) ? part : joined([part], total: total)
  }

  /// The unused capacity an output keeps rather than be copied: a quarter of it, or the fast
  /// decoder's room and a little more.
  private static func slack(_ total: Int) -> Int { max(total / 4, fastDecoderRoom + 64) }

  /// The parts as one array: the part itself when there is one and it holds little slack.
  private static func joined(_ parts: [[UInt8]], total: Int) -> [UInt8] {
    if parts.count == 1, parts[0].capacity - total <= slack(total) { return parts[0] }
    var bytes: [UInt8] = []
    bytes.reserveCapacity(total)
    for part in parts { bytes += part }
    return bytes
  }
}
