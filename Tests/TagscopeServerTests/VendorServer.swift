import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL

@testable import TagscopeServer

/// A local stand-in for the vendors' servers: HTTPS with a certificate for every host the tests
/// name, signed by a CA of its own (the proxy verifies upstream against it), recording each
/// request as it arrived. In ``Mode/stall`` it never answers, in ``Mode/reset`` it closes
/// without answering, in ``Mode/refuse`` it answers `400` with ``refusal``; otherwise each request gets `200 {"status":1,"code":200,"success":true}` (what Mixpanel, Amplitude and the
/// others accept) with `X-Vendor: tagscope-test`.
final class VendorServer: @unchecked Sendable {
  /// One request as the vendor saw it.
  struct Received: Sendable {
    let host: String
    let method: String
    let path: String
    let headers: [(String, String)]
    let body: [UInt8]
  }

  static let answer = #"{"status":1,"code":200,"success":true}"#
  /// The body of a refusal (``Mode/refuse``).
  static let refusal = #"{"success":false,"message":"invalid request"}"#

  /// How the vendor treats the next requests.
  enum Mode: Sendable {
    case answer, stall, reset, refuse
  }

  private var storedMode = Mode.answer
  /// How requests are treated from now on (paths `/stall` and `/reset` aside).
  var mode: Mode {
    get {
      lock.lock()
      defer { lock.unlock() }
      return storedMode
    }
    set {
      lock.lock()
      storedMode = newValue
      lock.unlock()
    }
  }

  let port: Int
  let authority: CertificateAuthority
  private let channel: any Channel
  private let group: MultiThreadedEventLoopGroup
  private let lock = NSLock()
  private var stored: [Received] = []

  private init(
    port: Int, authority: CertificateAuthority, channel: any Channel, group: MultiThreadedEventLoopGroup
  ) {
    self.port = port
    self.authority = authority
    self.channel = channel
    self.group = group
  }

  var requests: [Received] {
    lock.lock()
    defer { lock.unlock() }
    return stored
  }

  fileprivate func receive(_ request: Received) {
    lock.lock()
    stored.append(request)
    lock.unlock()
  }

  /// Starts on a free loopback port with a CA in `directory` and one leaf for all of `hosts`.
  static func start(hosts: [String], directory: URL) async throws -> VendorServer {
    let authority = try CertificateAuthority(directory: directory, name: "Vendor Test CA")
    let leaf = try authority.mint(hosts: hosts)
    var tls = TLSConfiguration.makeServerConfiguration(
      certificateChain: [
        .certificate(try NIOSSLCertificate(bytes: Array(leaf.certificatePEM.utf8), format: .pem))
      ],
      privateKey: .privateKey(try NIOSSLPrivateKey(bytes: Array(leaf.privateKeyPEM.utf8), format: .pem)))
    tls.applicationProtocols = ["http/1.1"]
    let context = try NIOSSLContext(configuration: tls)
    let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
    let box = ServerBox()
    let channel = try await ServerBootstrap(group: group)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: context))
          try channel.pipeline.syncOperations.configureHTTPServerPipeline()
          try channel.pipeline.syncOperations.addHandler(VendorHandler(box: box))
        }
      }
      .bind(host: "127.0.0.1", port: 0).get()
    let server = VendorServer(
      port: channel.localAddress?.port ?? 0, authority: authority, channel: channel, group: group)
    box.server = server
    return server
  }

  func shutdown() async {
    try? await channel.close()
    try? await group.shutdownGracefully()
  }
}

/// Lets handlers made before the server exists reach it.
private final class ServerBox: @unchecked Sendable {
  weak var server: VendorServer?
}

private final class VendorHandler: ChannelInboundHandler {
  typealias InboundIn = HTTPServerRequestPart
  typealias OutboundOut = HTTPServerResponsePart

  private let box: ServerBox
  private var head: HTTPRequestHead?
  private var body: [UInt8] = []

  init(box: ServerBox) { self.box = box }

  func channelRead(context: ChannelHandlerContext, data: NIOAny) {
    switch unwrapInboundIn(data) {
    case .head(let head):
      self.head = head
      body = []
    case .body(let chunk):
      body += chunk.readableBytesView
    case .end:
      guard let head else { return }
      let path = String(head.uri.split(separator: "?").first ?? "")
      box.server?.receive(
        VendorServer.Received(
          host: head.headers.first(name: "host") ?? "", method: head.method.rawValue, path: path,
          headers: head.headers.map { ($0.name, $0.value) }, body: body))
      switch box.server?.mode ?? .answer {
      case .stall: return
      case .reset:
        context.close(promise: nil)
        return
      case .answer, .refuse: break
      }
      let refused = box.server?.mode == .refuse
      let answer = refused ? VendorServer.refusal : VendorServer.answer
      var headers = HTTPHeaders()
      headers.add(name: "Content-Type", value: "application/json")
      headers.add(name: "Content-Length", value: String(answer.utf8.count))
      headers.add(name: "X-Vendor", value: "tagscope-test")
      let status: HTTPResponseStatus = refused ? .badRequest : .ok
      context.write(
        wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
        promise: nil)
      context.write(
        wrapOutboundOut(.body(.byteBuffer(context.channel.allocator.buffer(string: answer)))), promise: nil)
      context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }
  }
}

extension VendorServer {
  /// The proxy in front of this vendor, as the proxy tests start it: every upstream host resolved
  /// to this server (the test-only resolve override) and trusted through its CA, the proxy's own CA
  /// made in `authorityDirectory`.
  func proxyConfiguration(
    authorityDirectory: URL, hosts: InterceptedHosts = InterceptedHosts(), forward: Bool,
    upstreamTimeout: TimeAmount = .seconds(30)
  ) -> ListenConfiguration {
    var configuration = ListenConfiguration(port: 0)
    configuration.proxy = ProxyConfiguration(
      port: 0, hosts: hosts, forward: forward, authorityDirectory: authorityDirectory,
      resolve: ["*": UpstreamAddress(host: "127.0.0.1", port: port)],
      upstreamTrustRoots: authority.certificateFile.path, upstreamTimeout: upstreamTimeout)
    return configuration
  }
}
