import NIOCore
import NIOHTTP1

/// A HAR entry as the request an SDK endpoint takes (``ReceivedRequest``), through the same router
/// and decompression as `listen` and the proxy.
enum CaptureRequest {
  /// Where an entry goes.
  enum Route {
    /// An SDK event endpoint and the request for it.
    case endpoint(any SDKEndpoint, ReceivedRequest)
    /// Not decoded, and why (grouped by host, path and reason in the import's summary).
    case unread(host: String, path: String, reason: String)
    /// Decoded, but what the decoder needs is not there.
    case refused(String)
  }

  /// The route of `entry`: decoded when its host is one `hosts` holds and the router finds an SDK
  /// event endpoint for its method and path, as in the proxy.
  static func route(_ entry: HAREntry, hosts: InterceptedHosts, address: String) -> Route {
    let target = RequestTarget(entry.url)
    let path = target.path
    guard let host = target.host, target.scheme == "http" || target.scheme == "https" else {
      return .unread(host: target.host ?? "", path: path, reason: "not an http(s) URL")
    }
    guard hosts.contains(host) else {
      return .unread(host: host, path: path, reason: "not an SDK host (import-capture --host adds one)")
    }
    let method = HTTPMethod(rawValue: entry.method)
    let query = target.query  // decoded once, for the router and the request
    let endpoint: any SDKEndpoint
    switch EndpointRouter.route(method: method, path: path, query: query, host: host) {
    case .endpoint(let found): endpoint = found
    case .settings: return .unread(host: host, path: path, reason: "an SDK's set-up request (no events)")
    case .preflight: return .unread(host: host, path: path, reason: "a CORS preflight")
    case .methodNotAllowed:
      return .unread(host: host, path: path, reason: "an SDK path not taken with \(method)")
    case .notFound, .api, .apiRefused: return .unread(host: host, path: path, reason: "no SDK event path")
    }
    var headers = HTTPHeaders(entry.headers)
    if !headers.contains(name: "content-type"), let mimeType = entry.mimeType, !mimeType.isEmpty {
      headers.add(name: "Content-Type", value: mimeType)
    }
    switch body(of: entry, headers: headers, limit: endpoint.bodyLimit) {
    case .refused(let problem): return .refused(problem)
    case .bytes(let body):
      headers.remove(name: "content-encoding")
      headers.remove(name: "content-length")
      let request = ReceivedRequest(
        method: method, path: path, query: query, headers: headers, body: body, peerHost: address)
      return .endpoint(endpoint, request)
    }
  }

  /// A body as the decoder takes it, or why there is none.
  private enum Body {
    case bytes([UInt8])
    case refused(String)
  }

  /// The body as the decoder takes it. Tools write a body decoded (mitmproxy and Chromium undo
  /// `Content-Encoding` and keep the header), so a body is decompressed, with `listen`'s
  /// decompressor and limit (``BodyDecompression``), only when its bytes are gzip or zlib.
  private static func body(of entry: HAREntry, headers: HTTPHeaders, limit: Int) -> Body {
    let bytes = entry.body ?? []
    guard let encoding = headers.first(name: "content-encoding"), encoding != "identity",
      isCompressed(bytes)
    else {
      return bytes.count > limit
        ? .refused("a body of \(bytes.count) bytes, over its SDK's \(limit)") : .bytes(bytes)
    }
    let head = HTTPRequestHead(version: .http1_1, method: .POST, uri: "/", headers: headers)
    switch BodyDecompression.decode(head: head, body: ByteBuffer(bytes: bytes), limit: limit) {
    case .decoded(let decoded): return .bytes(decoded)
    case .tooLarge: return .refused("a body over its SDK's \(limit) bytes once decompressed")
    case .unsupported(let name): return .refused("a body in an encoding listen does not take (\(name))")
    case .failed: return .refused("a \(encoding) body that does not decompress")
    }
  }

  /// Whether `bytes` start as gzip (`1f 8b`) or zlib (a deflate header whose check holds) do.
  static func isCompressed(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 2 else { return false }
    if bytes[0] == 0x1f && bytes[1] == 0x8b { return true }
    return bytes[0] & 0x0f == 8 && (UInt16(bytes[0]) << 8 | UInt16(bytes[1])) % 31 == 0
  }
}
