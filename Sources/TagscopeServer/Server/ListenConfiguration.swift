import NIOCore

/// How `tagscope listen` listens: address, native-client token and the limits that keep one bad
/// client from hurting the others.
public struct ListenConfiguration: Sendable {
  /// The address to bind; loopback unless asked otherwise.
  public var host: String
  /// The TCP port; `0` picks a free one (see ``ListenServer/port``).
  public var port: Int
  /// When set, native clients must send it as the header's `token` field.
  public var token: String?
  /// Connections open at once; a new one beyond it closes the longest-idle connection to make room.
  public var maximumConnections: Int
  /// The longest native line (one record), in bytes.
  public var maximumLineBytes: Int
  /// The largest HTTP body any endpoint accepts after decompression (each SDK has its own, lower
  /// limit; this bounds gzip expansion).
  public var maximumBodyBytes: Int
  /// How long a new connection may stay silent before it is closed.
  public var firstBytesTimeout: TimeAmount
  /// How long a native client has to send its header line.
  public var headerTimeout: TimeAmount
  /// How long one HTTP request may take from its first byte to its last.
  public var requestTimeout: TimeAmount
  /// How long an HTTP keep-alive connection may idle between requests.
  public var keepAliveTimeout: TimeAmount
  /// How long a native stream may idle after its header (60 s; `RemoteSink` sends an empty line
  /// after 15 s without records); `nil` for no limit.
  public var nativeIdleTimeout: TimeAmount?
  /// The highest `seq` already recorded per native run (a `RemoteSink`'s `run` header field), when
  /// `listen` continues a recording: records at or below it are duplicates, acknowledged and
  /// dropped.
  public var recordedRuns: [String: UInt64] = [:]
  /// The `seq`s per native run already recorded far past the run's highest (more than
  /// `seqJumpLimit`, so never acknowledged): a resend of one is a duplicate, dropped.
  public var recordedJumps: [String: Set<UInt64>] = [:]
  /// The SDK devices of the recording being continued, whose states `listen` carries on.
  public var recordedDevices = RecordedDevices()
  /// The last SDK messages of the recording being continued, whose retries are skipped
  /// (``RecordedMessages``).
  public var recordedMessages = RecordedMessages()
  /// How far the recording being continued holds each followed log file (``RecordedLogs``).
  public var recordedLogs = RecordedLogs()
  /// The most SDK device ids tracked at once; past it the longest idle device is forgotten.
  public var deviceLimit = ListenConfiguration.defaultDeviceLimit
  /// The default ``deviceLimit``, 2,048.
  public static let defaultDeviceLimit = 2_048
  /// The one web origin (`scheme://host[:port]`) that may call the query API from a browser
  /// (`--cors-origin`); without it the query API refuses requests that carry an `Origin` header.
  public var corsOrigin: String?
  /// When set, an intercepting HTTP(S) proxy (`tagscope proxy`) on its own port feeds the same
  /// session: same decoders, devices, records and acknowledgements.
  public var proxy: ProxyConfiguration?

  /// The default port, 7531.
  public static let defaultPort = 7531

  /// A configuration; every limit has a default suited to a developer laptop.
  public init(
    host: String = "127.0.0.1", port: Int = ListenConfiguration.defaultPort, token: String? = nil,
    maximumConnections: Int = 1024, maximumLineBytes: Int = 4 * 1024 * 1024,
    maximumBodyBytes: Int = 20 * 1024 * 1024, firstBytesTimeout: TimeAmount = .seconds(10),
    headerTimeout: TimeAmount = .seconds(10), requestTimeout: TimeAmount = .seconds(30),
    keepAliveTimeout: TimeAmount = .seconds(60), nativeIdleTimeout: TimeAmount? = .seconds(60),
    corsOrigin: String? = nil
  ) {
    self.corsOrigin = corsOrigin
    self.host = host
    self.port = port
    self.token = token
    self.maximumConnections = maximumConnections
    self.maximumLineBytes = maximumLineBytes
    self.maximumBodyBytes = maximumBodyBytes
    self.firstBytesTimeout = firstBytesTimeout
    self.headerTimeout = headerTimeout
    self.requestTimeout = requestTimeout
    self.keepAliveTimeout = keepAliveTimeout
    self.nativeIdleTimeout = nativeIdleTimeout
  }
}
