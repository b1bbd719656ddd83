import NIOCore
import NIOHTTP1
import NIOHTTPCompression

/// With `--no-forward`, what answers an intercepted request locally, as `listen` answers it:
/// `listen`'s own handler behind a rewrite to origin form and the request decompressor, all
/// behind a ``LocalLane/Gate``.
enum LocalLane {
  /// The lane's handlers, in pipeline order, and its gate.
  static func handlers(server: ServerContext) -> (handlers: [any ChannelHandler], gate: Gate) {
    let gate = Gate()
    return (
      [
        gate, OriginFormRewriter(statistics: server.statistics),
        NIOHTTPRequestDecompressor(limit: .size(server.configuration.maximumBodyBytes)),
        HTTPIngestHandler(server: server),
      ], gate
    )
  }

  /// In front of the lane on a plain-HTTP connection that also forwards: while the forwarder has
  /// the connection (its request was forwarded), a close the lane asks for (its keep-alive
  /// deadline, armed after its last answer) is not passed on; the forwarder's own deadlines
  /// hold the connection then.
  final class Gate: ChannelOutboundHandler {
    typealias OutboundIn = HTTPServerResponsePart

    /// Whether the lane answers the connection's current (or last) request.
    var inCharge = true

    func close(context: ChannelHandlerContext, mode: CloseMode, promise: EventLoopPromise<Void>?) {
      guard inCharge else {
        promise?.fail(ChannelError.operationUnsupported)
        return
      }
      context.close(mode: mode, promise: promise)
    }
  }
}
