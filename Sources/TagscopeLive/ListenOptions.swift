import TagscopeServer

/// What `tagscope listen` was asked to do.
public struct ListenOptions: Sendable {
  /// Address to bind (loopback by default; anything else must be asked for).
  public var host: String
  /// Port (`0` for any free one).
  public var port: Int
  /// Token native clients must send in their header (`"token"` field), if any.
  public var token: String?
  /// Where to write the recording, if anywhere.
  public var recordPath: String?
  /// No user interface: one line per record on standard output.
  public var headless: Bool
  /// With `headless`: print nothing per record (the summary still goes to standard error).
  public var quiet: Bool
  /// With a plan: where to write the session's JUnit report when `listen` stops.
  public var junitPath: String?
  /// With a plan: where to write the session's JSON report when `listen` stops.
  public var jsonPath: String?
  /// The one web origin allowed to call the query API (`--cors-origin`).
  public var corsOrigin: String?
  /// The intercepting proxy to run beside the port (`tagscope proxy`), if any.
  public var proxy: ProxyConfiguration?
  /// Device logs read as they are written (`--log FORMAT PATH`).
  public var logs: [LogInput] = []
  /// Headless: stop (as on SIGINT: summary, reports) when a log read from standard input ends
  /// (`--exit-on-eof`), instead of serving on until a signal.
  public var exitOnEndOfInput = false

  /// Options; the defaults are `tagscope listen` with no flags.
  public init(
    host: String = "127.0.0.1", port: Int = ListenConfiguration.defaultPort, token: String? = nil,
    recordPath: String? = nil, headless: Bool = false, quiet: Bool = false, junitPath: String? = nil,
    jsonPath: String? = nil, corsOrigin: String? = nil
  ) {
    self.corsOrigin = corsOrigin
    self.host = host
    self.port = port
    self.token = token
    self.recordPath = recordPath
    self.headless = headless
    self.quiet = quiet
    self.junitPath = junitPath
    self.jsonPath = jsonPath
  }

  /// The server configuration these options describe.
  public var configuration: ListenConfiguration {
    var configuration = ListenConfiguration(host: host, port: port, token: token, corsOrigin: corsOrigin)
    configuration.proxy = proxy
    return configuration
  }
}
