import NIOCore
import NIOHTTP1

/// The body collection stage of the SDK request pipeline, for `listen`'s handler and the proxy's
/// alike: one rule for the limit (the endpoint's within the server's; the server's for a request no
/// endpoint decodes), one answer to `Expect: 100-continue`, one bound on what a refused request
/// may still send.
enum BodyCollector {
  /// The body limit of a request to `endpoint` (``RequestAdmission/limit(_:server:)``), or the
  /// server's for a request no endpoint decodes.
  static func limit(_ endpoint: (any SDKEndpoint)?, server: ServerContext) -> Int {
    endpoint.map { RequestAdmission.limit($0, server: server) } ?? server.configuration.maximumBodyBytes
  }

  /// An empty body for the request `head`, after answering its `Expect: 100-continue` (the client
  /// then sends the body) on `context`, whose outbound parts are `HTTPServerResponsePart`s.
  static func start(_ head: HTTPRequestHead, context: ChannelHandlerContext) -> ByteBuffer {
    if expectsContinue(head) {
      let interim = HTTPResponseHead(version: head.version, status: .continue)
      context.writeAndFlush(NIOAny(HTTPServerResponsePart.head(interim)), promise: nil)
    }
    return context.channel.allocator.buffer(capacity: 0)
  }

  /// Whether the client waits for `100 Continue` (or a final status) before sending the body.
  static func expectsContinue(_ head: HTTPRequestHead) -> Bool {
    head.headers[canonicalForm: "expect"].contains { $0.lowercased() == "100-continue" }
  }

  /// Appends `chunk` to `body`, made by `allocator` at its first bytes (an empty buffer grows with
  /// NIO's default allocator, whatever the channel's); `false` once the body is past `limit` (the
  /// request is then refused).
  static func append(
    _ chunk: inout ByteBuffer, to body: inout ByteBuffer, limit: Int, allocator: ByteBufferAllocator
  ) -> Bool {
    if body.capacity == 0 { body = allocator.buffer(capacity: chunk.readableBytes) }
    body.writeBuffer(&chunk)
    return body.readableBytes <= limit
  }

  /// Discards `bytes` more of a refused request, `discarded` of it discarded before: the new total,
  /// and whether the connection is to close now (past ``RequestPolicy/maximumDiscard``).
  static func discard(_ bytes: Int, after discarded: Int) -> (total: Int, closeNow: Bool) {
    let total = discarded + bytes
    return (total, total > RequestPolicy.maximumDiscard)
  }
}
