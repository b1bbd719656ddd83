import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Undoes a request body's `Content-Encoding` (gzip, deflate) for the endpoint decoders, with the
/// same decompressor, encodings and limit as `listen`; the proxy forwards the original bytes, never
/// these.
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
    let channel = EmbeddedChannel(handler: NIOHTTPRequestDecompressor(limit: .size(limit)))
    defer { _ = try? channel.finish() }
    var decoded: [UInt8] = []
    do {
      try channel.writeInbound(HTTPServerRequestPart.head(head))
      try channel.writeInbound(HTTPServerRequestPart.body(body))
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
