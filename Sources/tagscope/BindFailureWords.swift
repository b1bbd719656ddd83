import TagscopeServer

extension BindFailure {
  /// The sentence with the command and option that gave the port or address:
  /// `port 8080 is already in use (tagscope proxy --proxy-port 8080)`.
  func sentence(proxy: Bool) -> String {
    "\(description) (tagscope \(proxy ? "proxy" : "listen") \(option))"
  }
}
