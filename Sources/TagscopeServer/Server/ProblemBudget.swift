/// How many problems one connection may report: the first ``limit`` are delivered as they happen,
/// later ones are only counted and summed up once when the connection closes. A client sending
/// 200,000 bad lines cannot fill the terminal or the log (it wrote 18 MB to stderr).
struct ProblemBudget {
  /// Problems reported one by one per connection.
  static let limit = 10
  /// The longest message delivered, in characters; longer ones are clipped.
  static let messageLimit = 300

  private var shown = 0
  private var hidden = 0

  /// The event for a problem, or `nil` once the connection used up its budget (then it is counted).
  mutating func problem(source: String, message: String) -> ListenEvent? {
    guard shown < Self.limit else {
      hidden += 1
      return nil
    }
    shown += 1
    var text = message
    if text.count > Self.messageLimit { text = String(text.prefix(Self.messageLimit)) + "…" }
    if shown == Self.limit { text += " (further problems on this connection are counted, not shown)" }
    return .problem(source: source, message: text)
  }

  /// The closing summary of problems not shown, if there were any; resets the count.
  mutating func summary(source: String) -> ListenEvent? {
    guard hidden > 0 else { return nil }
    defer { hidden = 0 }
    return .problem(source: source, message: "\(hidden) more problems on this connection, not shown")
  }
}

extension String {
  /// This text clipped to `limit` characters, with `…` when it was longer (untrusted names).
  func clipped(to limit: Int) -> String {
    count > limit ? String(prefix(limit)) + "…" : self
  }
}
