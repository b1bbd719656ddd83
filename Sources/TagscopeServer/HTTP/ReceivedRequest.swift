import NIOHTTP1

/// A complete HTTP request as an SDK endpoint sees it: head, decoded query and the decompressed body.
struct ReceivedRequest: Sendable {
  var method: HTTPMethod
  /// The path without the query.
  var path: String
  /// Query parameters, percent-decoded, in order.
  var query: [(name: String, value: String)]
  var headers: HTTPHeaders
  /// The body after `Content-Encoding` was undone.
  var body: [UInt8]
  /// The client's IP address.
  var peerHost: String

  /// The first query parameter named `name`.
  func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

  /// The media type of `Content-Type`, lowercased, without parameters (`application/json`).
  var mediaType: String? {
    guard let header = headers.first(name: "content-type") else { return nil }
    let type = header.split(separator: ";", maxSplits: 1).first.map(String.init) ?? header
    return type.trimmingSpaces().lowercased()
  }

  /// Whether the body is declared as JSON (`application/json`, `text/plain` is not).
  var isJSON: Bool { mediaType == "application/json" || (mediaType?.hasSuffix("+json") ?? false) }

  /// Whether the body is declared as an HTML form.
  var isForm: Bool { mediaType == "application/x-www-form-urlencoded" }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  func trimmingSpaces() -> String {
    var slice = Substring(self)
    while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
    while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
    return String(slice)
  }
}
