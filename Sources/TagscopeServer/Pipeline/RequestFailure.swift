import NIOHTTP1
import NIOHTTPCompression

/// What the pipeline does with an error its framing raised (the HTTP parser, the chunk size
/// guard, the decompressor) while a request is read, one rule for `listen` and the proxy.
enum RequestFailure {
  /// The client closed before its request was complete: counted as truncated, then closed.
  case truncated
  /// The request is refused with this reply, answered once, then the connection closed.
  case refuse(SDKReply)
  /// Nothing to answer: the connection is closed.
  case close

  /// The failure for `error`, raised while reading a request to `endpoint` (`nil` for none, or
  /// between requests).
  static func of(_ error: any Error, endpoint: (any SDKEndpoint)?) -> RequestFailure {
    if let parserError = error as? HTTPParserError {
      return parserError == .invalidEOFState ? .truncated : .refuse(RequestAdmission.badHTTP)
    }
    if error is ChunkSizeGuard.TooLarge {
      // A chunk size past the limit: refused at once, as a Content-Length past it.
      return .refuse(endpoint?.replyTooLarge() ?? RequestAdmission.tooLarge)
    }
    if let decompression = error as? NIOHTTPDecompression.DecompressionError {
      if decompression == .limit, let endpoint { return .refuse(endpoint.replyTooLarge()) }
      return .refuse(RequestAdmission.doesNotDecompress)
    }
    if error is NIOHTTPDecompression.ExtraDecompressionError {
      return .refuse(RequestAdmission.doesNotDecompress)
    }
    return .close
  }
}
