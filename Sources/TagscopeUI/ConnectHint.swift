/// What an empty `listen` (or `proxy`) says instead of only "waiting for records…": how an app
/// with the inspector, an SDK and a device through the proxy reach it, with the address and ports
/// it really listens on — read from its label (`listening on 127.0.0.1:7531, proxy on
/// 127.0.0.1:8888`, then ``tokenRequired`` when it has a `--token`), the words the live session
/// gives the header.
public enum ConnectHint {
  /// The port an app attaches to when none is given (`attachDebugger(port:)`).
  static let defaultPort = "7531"
  /// What a listening source's label ends with when it has a `--token`: the hint then passes one.
  public static let tokenRequired = " · token required"

  /// The hint's lines for a source labelled `label`; empty when it is not listening.
  static func lines(label: String) -> [String] {
    guard let listen = address(after: "listening on ", in: label) else { return [] }
    // Listening on every interface: a device uses this machine's address.
    let reachable =
      ["0.0.0.0", "::", "[::]"].contains(listen.host) ? "<this machine's address>" : listen.host
    let port = listen.port == defaultPort ? "" : ", port: \(listen.port)"
    let hasToken = label.contains(tokenRequired)
    let token = hasToken ? ", token: \"<your --token>\"" : ""
    let key = hasToken ? " and its key to your --token" : ""
    var lines = [
      "waiting for records… connect:",
      "• an app with the inspector: hub.attachDebugger(host: \"\(reachable)\"\(port)\(token))",
      "• an SDK: set its host to http://\(reachable):\(listen.port)\(key) (tagscope help listen)",
    ]
    if let proxy = address(after: "proxy on ", in: label) {
      let host = ["0.0.0.0", "::", "[::]"].contains(proxy.host) ? "<this machine's address>" : proxy.host
      lines.append(
        "• a device through the proxy: set its HTTP proxy to \(host):\(proxy.port) and trust the CA "
          + "(tagscope proxy ca)")
    } else {
      lines.append("• an app you cannot change: tagscope proxy (tagscope help proxy)")
    }
    return lines
  }

  /// The `host:port` after `prefix` in `label`, up to a comma, a space or the end.
  static func address(after prefix: String, in label: String) -> (host: String, port: String)? {
    guard let start = label.range(of: prefix)?.upperBound else { return nil }
    let word = label[start...].prefix { $0 != "," && $0 != " " }
    guard let colon = word.lastIndex(of: ":"), colon > word.startIndex else { return nil }
    let port = word[word.index(after: colon)...]
    guard !port.isEmpty, port.allSatisfy(\.isNumber) else { return nil }
    return (String(word[..<colon]), String(port))
  }
}
