import NIOCore
import NIOHTTP1

/// Writes an ``SDKReply`` as an HTTP response, for `listen`'s handler and the proxy's alike: the
/// reply's own headers, those the caller adds (CORS, `Connection`), its body, its end.
enum ReplyWriter {
  /// The reply's headers: its `Content-Type` and `Content-Length`, and `Retry-After` and `Allow`
  /// when it has them.
  static func headers(of reply: SDKReply) -> HTTPHeaders {
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: reply.contentType)
    headers.add(name: "Content-Length", value: String(reply.body.utf8.count))
    if let retryAfter = reply.retryAfter { headers.add(name: "Retry-After", value: String(retryAfter)) }
    if let allow = reply.allow { headers.add(name: "Allow", value: allow) }
    return headers
  }

  /// Writes `reply` with `headers`, answering `request`, and flushes it; with `close`, closes the
  /// connection once it is written. A `HEAD` request gets the headers alone (RFC 9110 §9.3.2):
  /// a body would be read as the start of the next response on a kept-alive connection.
  static func write(
    _ reply: SDKReply, headers: HTTPHeaders, request: HTTPRequestHead, close: Bool,
    context: ChannelHandlerContext
  ) {
    let head = HTTPResponseHead(version: request.version, status: reply.status, headers: headers)
    context.write(NIOAny(HTTPServerResponsePart.head(head)), promise: nil)
    if !reply.body.isEmpty, request.method != .HEAD {
      let body = context.channel.allocator.buffer(string: reply.body)
      context.write(NIOAny(HTTPServerResponsePart.body(.byteBuffer(body))), promise: nil)
    }
    guard close else {
      context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: nil)
      return
    }
    let written = context.eventLoop.makePromise(of: Void.self)
    context.writeAndFlush(NIOAny(HTTPServerResponsePart.end(nil)), promise: written)
    let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
    written.futureResult.whenComplete { _ in loopBound.value.close(promise: nil) }
  }

  /// Writes `reply` with `headers` answering `request`, as `listen` and the proxy both answer:
  /// `Connection: close` when the connection closes once it is written (`close`) or once the
  /// rest of a refused request is discarded (`announceClose`), else `keep-alive`. Returns whether
  /// the connection is kept alive: the caller then arms its idle deadline (after the write, which
  /// may hand on a request pipelined behind).
  static func answer(
    _ reply: SDKReply, headers: inout HTTPHeaders, request: HTTPRequestHead, close: Bool, announceClose: Bool,
    context: ChannelHandlerContext
  ) -> Bool {
    headers.add(name: "Connection", value: close || announceClose ? "close" : "keep-alive")
    write(reply, headers: headers, request: request, close: close, context: context)
    return !close && !announceClose
  }
}
