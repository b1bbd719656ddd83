import TaggingPlan

/// Everything ``LiveSessionRoot`` needs to start a live session, on every path: `listen` and
/// `proxy` (headless or in the debugger) and `demo`.
public struct LiveSessionOptions: Sendable {
  /// The server's options (bind, token, proxy, followed logs) and the recording's path.
  public var listen: ListenOptions
  /// The tagging plan the session checks every record against, if any.
  public var plan: Plan?
  /// Whether the session runs the listen server (and proxy and log followers); `false` for the
  /// demo, whose records come from its in-process hub.
  public var serves: Bool
  /// The app named in the header of the session's timeline and of a new recording.
  public var app: String
  /// The device named in those headers; `nil`: the bind address and port.
  public var device: String?
  /// The ingest queue's bound, in records.
  public var capacity: Int

  /// Options for a session of `listen`'s options checking `plan`.
  public init(
    listen: ListenOptions, plan: Plan? = nil, serves: Bool = true, app: String = "tagscope listen",
    device: String? = nil, capacity: Int = LiveSession.defaultCapacity
  ) {
    self.listen = listen
    self.plan = plan
    self.serves = serves
    self.app = app
    self.device = device
    self.capacity = capacity
  }

  /// The device the headers name.
  var headerDevice: String {
    device ?? (listen.port == 0 ? listen.host : "\(listen.host):\(listen.port)")
  }
}
