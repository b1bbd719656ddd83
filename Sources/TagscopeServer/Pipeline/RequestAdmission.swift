import NIOHTTP1

/// The admission stage of the SDK request pipeline: the refusals `listen` and the proxy share for a
/// request, before and while its body is read, and the busy answer of a session that is behind;
/// one rule, so both answer a hostile body (or a full queue) alike.
enum RequestAdmission {
  /// The body limit of a request to `endpoint`: its own, within the server's.
  static func limit(_ endpoint: any SDKEndpoint, server: ServerContext) -> Int {
    min(endpoint.bodyLimit, server.configuration.maximumBodyBytes)
  }

  /// The reply refusing a request from its head alone, or `nil` when its body is to be read: a
  /// declared length over `limit` or not a number (past `Int.max`) gets the endpoint's answer to a
  /// body too large at once rather than being waited for; a `Content-Encoding` other than gzip,
  /// deflate or identity (exactly so spelled: the only ones decompressed) gets `415`.
  static func refusal(head: HTTPRequestHead, endpoint: any SDKEndpoint, limit: Int) -> SDKReply? {
    if let declared = head.headers.first(name: "content-length"),
      Int(declared).map({ $0 < 0 || $0 > limit }) ?? true
    {
      return endpoint.replyTooLarge()
    }
    if let encoding = head.headers.first(name: "content-encoding"), !encodings.contains(encoding) {
      return unsupportedEncoding
    }
    return nil
  }

  /// The refusal of a request from its head when no endpoint decodes it (the proxy forwards it): a
  /// declared length past the server's limit, or not a number.
  static func refusal(head: HTTPRequestHead, server: ServerContext) -> SDKReply? {
    guard let declared = head.headers.first(name: "content-length") else { return nil }
    let limit = server.configuration.maximumBodyBytes
    return Int(declared).map { $0 < 0 || $0 > limit } ?? true ? tooLarge : nil
  }

  /// The reply of a request the session cannot take now (its queue full, or the large-body
  /// budget): `503` + `Retry-After`, counted; nothing of the request is taken, nor forwarded.
  static func busy(server: ServerContext) -> SDKReply {
    server.statistics.update { $0.busyReplies += 1 }
    return RequestPolicy.busy
  }

  /// The encodings a body may have.
  static let encodings = ["gzip", "deflate", "identity"]

  /// `415` for a `Content-Encoding` that is not decompressed.
  static let unsupportedEncoding = SDKReply(
    status: .unsupportedMediaType, contentType: "text/plain",
    body: "Content-Encoding must be gzip, deflate or identity", rejection: .badEncoding)

  /// `400` for a body that does not decompress.
  static let doesNotDecompress = SDKReply(
    status: .badRequest, contentType: "text/plain", body: "Body does not decompress", rejection: .badEncoding)

  /// `413` for a body too large for a request that is no SDK endpoint's.
  static let tooLarge = SDKReply(
    status: .payloadTooLarge, contentType: "text/plain", body: "Request body too large",
    rejection: .bodyTooLarge)

  /// `400` for a request the HTTP parser refused.
  static let badHTTP = SDKReply(
    status: .badRequest, contentType: "text/plain", body: "Bad request", rejection: .badHTTP)
}

extension RejectionReason {
  /// A limit that bounds the work a request costs (its size, its events, its encoding) rather than
  /// what its content says: the proxy answers these itself, as `listen` does, and forwards nothing.
  var isLimit: Bool {
    switch self {
    case .bodyTooLarge, .tooManyEvents, .eventTooLarge, .badEncoding, .badHTTP: return true
    default: return false
    }
  }
}
