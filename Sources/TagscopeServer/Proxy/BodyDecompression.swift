import NIOCore
import NIOHTTP1

/// Undoes a request body's `Content-Encoding` (gzip, deflate) for the endpoint decoders, with the
/// encodings, limit and refusals of `listen`'s decompressor (``ZlibInflate``: gzip or zlib whatever
/// the header says, one stream, nothing after it, nothing cut short); the proxy forwards the
/// original bytes, never these.
enum BodyDecompression {
  /// What decompressing gave.
  enum Outcome {
    /// The decoded bytes (the body itself when it had no encoding).
    case decoded([UInt8])
    /// An encoding other than gzip, deflate or identity.
    case unsupported(String)
    /// Larger than `limit` once decoded (a decompression bomb, say).
    case tooLarge
    /// Not valid gzip/deflate.
    case failed
  }

  static func decode(head: HTTPRequestHead, body: ByteBuffer, limit: Int) -> Outcome {
    guard let encoding = head.headers.first(name: "content-encoding"), encoding != "identity" else {
      return body.readableBytes > limit ? .tooLarge : .decoded(Array(body.readableBytesView))
    }
    guard RequestAdmission.encodings.contains(encoding) else { return .unsupported(encoding) }
    return body.withUnsafeReadableBytes { ZlibInflate.inflate($0, limit: limit) }
  }

  /// `bytes` known to be gzip or zlib (by their first bytes, say) decompressed, as ``decode(head:body:limit:)``
  /// decompresses a body sent with `Content-Encoding: gzip`.
  static func decompress(_ bytes: [UInt8], limit: Int) -> Outcome {
    bytes.withUnsafeBytes { ZlibInflate.inflate($0, limit: limit) }
  }

  /// The reply of `listen` to what decompressing gave, `nil` for a body decoded: a body too large
  /// once decoded gets the endpoint's answer; an unknown encoding `415`; one that does not
  /// decompress `400`.
  static func refusal(_ outcome: Outcome, endpoint: any SDKEndpoint) -> SDKReply? {
    switch outcome {
    case .decoded: return nil
    case .tooLarge: return endpoint.replyTooLarge()
    case .unsupported: return RequestAdmission.unsupportedEncoding
    case .failed: return RequestAdmission.doesNotDecompress
    }
  }
}
