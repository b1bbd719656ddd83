/// The protobuf of a Firebase upload body as received: Android and recent iOS SDKs gzip it and say
/// so (`Content-Encoding: gzip`, undone before the endpoint sees the body), but a 2020 iOS upload
/// sent it raw without the header, and a proxy in between may drop the header and keep the bytes.
/// So a body that still starts as gzip (`1f 8b`) or zlib (`78 01|5e|9c|da`) is decompressed here,
/// with the same decompressor and limit as `listen` (``BodyDecompression``); anything else is taken
/// as protobuf.
enum FirebaseUploadBody {
  /// The protobuf bytes of `body`, at most `limit` of them, or why there are none.
  static func protobuf(_ body: [UInt8], limit: Int) -> Result<[UInt8], FirebaseUploadError> {
    guard let encoding = encoding(of: body) else {
      return body.count > limit ? .failure(.tooLarge) : .success(body)
    }
    switch BodyDecompression.decompress(body, limit: limit) {
    case .decoded(let bytes): return .success(bytes)
    case .tooLarge: return .failure(.tooLarge)
    case .unsupported, .failed: return .failure(.doesNotDecompress(encoding))
    }
  }

  /// `gzip` or `deflate` (zlib) when `body` starts as one, else `nil`.
  static func encoding(of body: [UInt8]) -> String? {
    guard body.count >= 2 else { return nil }
    if body[0] == 0x1f && body[1] == 0x8b { return "gzip" }
    // zlib: CM 8, a window of at most 32 KiB, and a header checksum (RFC 1950 §2.2). A protobuf
    // body starts with field 1 as a message (0x0a), never with 0x78.
    if body[0] == 0x78 && (UInt16(body[0]) << 8 | UInt16(body[1])) % 31 == 0 { return "deflate" }
    return nil
  }
}
