import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix

/// `tagscope listen`'s server: one TCP port taking both the native recording stream and the HTTP
/// APIs of existing analytics SDKs, told apart by their first bytes.
///
/// ```swift
/// let server = try await ListenServer.start(configuration: ListenConfiguration(port: 0)) { event in
///   if case .records(let records) = event { for record in records { try? timeline.append(record) } }
/// }
/// print("listening on", server.port)
/// ```
///
/// The consumer is called on the server's event-loop threads, concurrently for different
/// connections and in arrival order within one connection; it must be thread-safe. HTTP replies
/// are written only after the consumer returned, so nothing acknowledged is lost. A real consumer
/// (the debugger, the headless recorder) is a ``ListenIngest`` queue instead, so the event loops
/// only parse and enqueue and a full queue holds clients back.
public final class ListenServer: Sendable {
  private let serverChannel: any Channel
  private let proxyChannel: (any Channel)?
  private let context: ServerContext
  private let ownedGroup: MultiThreadedEventLoopGroup?
  private let followers = NIOLockedValueBox<[LogFollower]>([])

  /// The port the server listens on (the one picked when the configuration said `0`).
  public let port: Int
  /// The address it is bound to.
  public let host: String
  /// The proxy's port, when the configuration has a proxy.
  public let proxyPort: Int?

  private init(
    serverChannel: any Channel, proxyChannel: (any Channel)?, context: ServerContext,
    ownedGroup: MultiThreadedEventLoopGroup?, host: String
  ) {
    self.serverChannel = serverChannel
    self.proxyChannel = proxyChannel
    self.proxyPort = proxyChannel?.localAddress?.port
    self.context = context
    self.ownedGroup = ownedGroup
    self.port = serverChannel.localAddress?.port ?? context.configuration.port
    self.host = host
  }

  /// Binds and starts accepting connections; `consumer` receives everything that arrives, on the
  /// event-loop thread that read it (no queue, no backpressure).
  ///
  /// - Parameter group: the event loops to run on; by default the server makes its own (one loop
  ///   per core) and shuts it down in ``shutdown()``.
  public static func start(
    configuration: ListenConfiguration, group: (any EventLoopGroup)? = nil,
    consumer: @escaping @Sendable (ListenEvent) -> Void
  ) async throws -> ListenServer {
    try await start(configuration: configuration, group: group, ingest: ImmediateIngest(consumer))
  }

  /// Binds and starts accepting connections; everything that arrives is enqueued in `ingest`,
  /// whose bound holds clients back when it is full; `query` answers the query API
  /// (`/tagscope/v1/…`, with the configuration's token).
  public static func start(
    configuration: ListenConfiguration, group: (any EventLoopGroup)? = nil, ingest: any ListenIngest,
    query: (any QueryAPI)? = nil
  ) async throws -> ListenServer {
    let ownedGroup = group == nil ? MultiThreadedEventLoopGroup(numberOfThreads: System.coreCount) : nil
    let eventLoops: any EventLoopGroup = group ?? ownedGroup!
    let context = ServerContext(configuration: configuration, ingest: ingest, query: query)
    let bootstrap = ServerBootstrap(group: eventLoops)
      .serverChannelOption(.backlog, value: 512)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      .childChannelOption(.maxMessagesPerRead, value: 16)
      // A client that half-closes after its request (or its last record) still gets the reply
      // (or the acknowledgement): each protocol's handler closes once nothing is owed.
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          try channel.pipeline.syncOperations.addHandlers(
            LingeringClose(), ConnectionGuard(server: context), ProtocolDetector(server: context))
        }
      }
    var bound: [any Channel] = []
    do {
      let proxy = try configuration.proxy.map { try ProxyContext(configuration: $0, server: context) }
      let channel: any Channel
      do {
        channel = try await bootstrap.bind(host: configuration.host, port: configuration.port).get()
      } catch {
        throw BindFailure(error, role: .listen, host: configuration.host, port: configuration.port)
      }
      bound.append(channel)
      var proxyChannel: (any Channel)?
      if let proxy {
        // Never an upstream of the proxy: its own ports, as bound.
        proxy.noteOwnPort(channel.localAddress?.port)
        do {
          proxyChannel = try await Self.bindProxy(proxy, host: configuration.host, group: eventLoops).get()
        } catch {
          throw BindFailure(error, role: .proxy, host: configuration.host, port: proxy.configuration.port)
        }
        proxy.noteOwnPort(proxyChannel?.localAddress?.port)
      }
      return ListenServer(
        serverChannel: channel, proxyChannel: proxyChannel, context: context, ownedGroup: ownedGroup,
        host: configuration.host)
    } catch {
      for channel in bound { try? await channel.close() }
      try? await ownedGroup?.shutdownGracefully()
      throw error
    }
  }

  /// The proxy's listening channel: each connection starts as HTTP, its first request deciding
  /// what it becomes (``ProxyFrontHandler``).
  private static func bindProxy(_ proxy: ProxyContext, host: String, group: any EventLoopGroup)
    -> EventLoopFuture<any Channel>
  {
    ServerBootstrap(group: group)
      .serverChannelOption(.backlog, value: 512)
      .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
      .childChannelOption(.socketOption(.tcp_nodelay), value: 1)
      // A client that half-closes after its request still gets the reply; a tunnel passes the
      // half-close on to the other side (``TunnelGlue``).
      .childChannelOption(.allowRemoteHalfClosure, value: true)
      .childChannelInitializer { channel in
        channel.eventLoop.makeCompletedFuture {
          let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
          let encoder = HTTPResponseEncoder()
          let chunkGuard = ProxyFrontHandler.chunkGuard(proxy: proxy)
          try channel.pipeline.syncOperations.addHandlers(
            LingeringClose(), ConnectionGuard(server: proxy.server), encoder, chunkGuard, decoder,
            ProxyFrontHandler(proxy: proxy, decoder: decoder, encoder: encoder, chunkGuard: chunkGuard))
        }
      }
      .bind(host: host, port: proxy.configuration.port)
  }

  /// `, proxy on HOST:PORT` when a proxy runs, else empty.
  public var proxyDescription: String {
    proxyPort.map { ", proxy on \(host):\($0)" } ?? ""
  }

  /// The counters now.
  public var statistics: ServerStatistics { context.statistics.snapshot }

  /// Reads `log` as it is written (a file followed, or standard input) into the same ingest as
  /// the SDKs' requests: each entry a record of its device, checked like an SDK call. Stops at
  /// ``shutdown()``. Throws a sentence naming the path when it cannot be read.
  public func follow(_ log: LogInput) throws(LogInput.Failure) {
    let follower = try LogFollower(log, context: context)
    followers.withLockedValue { $0.append(follower) }
    follower.start()
  }

  /// Stops accepting, stops reading the logs it follows, closes every connection (delivering
  /// what each had read), and stops the event loops the server made.
  public func shutdown() async throws {
    for follower in followers.withLockedValue({ $0 }) { follower.stop() }
    try? await serverChannel.close()
    try? await proxyChannel?.close()
    for channel in context.openChannels {
      try? await LingeringClose.closeNow(channel).get()
    }
    if let ownedGroup { try await ownedGroup.shutdownGracefully() }
  }
}
