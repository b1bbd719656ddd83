import NIOHTTP1

/// Counts the requests a connection refused and reports each to the session as a problem within
/// the connection's budget (``ProblemBudget``): `listen`'s handler and the proxy's alike.
struct RefusalLog {
  private var problems = ProblemBudget()

  /// Counts `reply` when it refuses `head` and reports it, with `note` after it.
  mutating func count(
    _ reply: SDKReply, head: HTTPRequestHead, path: String, server: ServerContext, peerHost: String,
    note: String = ""
  ) {
    guard let rejection = reply.rejection else { return }
    server.statistics.reject(rejection)
    report(
      "\(head.method.rawValue) \(path) → \(reply.status.code) (\(rejection.rawValue))\(note)", server: server,
      peerHost: peerHost)
  }

  /// Reports a problem within the connection's budget.
  mutating func report(_ message: String, server: ServerContext, peerHost: String) {
    if let event = problems.problem(source: peerHost, message: message) { server.deliver(event) }
  }

  /// Reports how many problems were not shown, at the connection's end.
  mutating func close(server: ServerContext, peerHost: String) {
    if let summary = problems.summary(source: peerHost) { server.deliver(summary) }
  }
}
