import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import TagscopeServer

/// A local stand-in for a vendor's HTTPS endpoint, for the proxy benchmark: a loopback TLS server
/// whose one leaf (for every host it is given) is signed by a certificate authority of its own in
/// a temporary directory, answering every request `200` with a small JSON body on kept-alive
/// connections.
final class BenchVendorServer: Sendable {
  /// What every request gets (what Segment, Mixpanel and Amplitude accept as success).
  static let answer = #"{"status":1,"code":200,"success":true}"#

  /// The loopback port it listens on.
  let port: Int
  /// Its certificate authority (clients and the proxy trust `certificateFile`).
  let authority: CertificateAuthority
  /// Requests answered so far.
  let answered: Counter
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup

  private init(
    port: Int, authority: CertificateAuthority, answered: Counter, channel: any Channel,
    group: MultiThreadedEventLoopGroup
  ) {
    self.port = port
    self.authority = authority
    self.answered = answered
    self.channel = channel
    self.group = group
  }

  /// Starts on a free loopback port with a CA in `directory` and one leaf for all of `hosts`.
  static func start(hosts: [String], directory: URL) throws -> BenchVendorServer {
    let authority = try CertificateAuthority(directory: directory, name: "Bench Vendor CA")
    let leaf = try authority.mint(hosts: hosts)
    var tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: [
        .certificate(try NIOSSLCertificate(bytes: Array(leaf.certificatePEM.utf8), format: .pem))
      ],
      privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.privateKeyPEM.utf8), format: .pem)))
    tls.applicationProtocols = ["http/1.1"]
    let context = try NIOSSLContext(configuration: tls)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let answered = Counter()
    let channel = try ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 256)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(BenchVendorHandler(answered: answered))
        }
      }
      .bind(host: "127.0.0.1", port: 0).wait()
    return BenchVendorServer(
      port: channel.localAddress?.port ?? 0, authority: authority, answered: answered, channel: channel,
      group: group)
  }

  /// Closes the listening socket and stops its event loop (open connections with it).
  func shutdown() {
    try? channel.close().wait()
    try? group.syncShutdownGracefully()
  }
}

/// Answers each whole request `200` with ``BenchVendorServer/answer``.
private final class BenchVendorHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let answered: Counter

  init(answered: Counter) { self.answered = answered }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    guard case .end = unwrapInboundIn(data) else { return }
    var headers = HTTPHeaders()
    headers.add(name: "Content-Type", value: "application/json")
    headers.add(name: "Content-Length", value: String(BenchVendorServer.answer.utf8.count))
    context.write(
      wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: .ok, headers: headers))), promise: nil
    )
    context.write(
      wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: BenchVendorServer.answer)))),
      promise: nil)
    context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    answered.add(1)
  }
}
