import NIOCore
import NIOEmbedded
import NIOHTTP1
import NIOHTTPCompression

/// Undoes a request body's `Content-Encoding` (gzip, deflate) for the endpoint decoders, with the
/// same decompressor and limit as `listen`; the proxy forwards the original bytes, never these.
enum BodyDecompression {
  /// What decompressing gave.
  enum Outcome {
    /// The decoded bytes (the body itself when it had no encoding).
    case decoded([UInt8])
    /// An encoding other than gzip, deflate or identity.
    case unsupported(String)
    /// Not valid gzip/deflate, or larger than `limit` once decoded.
    case failed
  }

  static func decode(head: HTTPRequestHead, body: ByteBuffer, limit: Int) -> Outcome {
    guard let encoding = head.headers.first(name: "content-encoding")?.lowercased(), encoding != "identity"
    else { return .decoded(Array(body.readableBytesView)) }
    guard encoding == "gzip" || encoding == "deflate" else { return .unsupported(encoding) }
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
    } catch {
      return .failed
    }
    return .decoded(decoded)
  }
}
