/// A URI reference split into RFC 3986's five parts, and the one operation JSON Schema's `$id`
/// and `$ref` need: resolving a reference against a base URI (RFC 3986 §5.2), so that `$ref`s
/// within one document find the schema resources (`$id`) and anchors they name. Never fetches.
struct SchemaURI: Hashable {
  var scheme: String?
  var authority: String?
  var path: String
  var query: String?
  var fragment: String?

  /// The parts of `text` (RFC 3986 appendix B).
  init(_ text: String) {
    var rest = Substring(text)
    if let hash = rest.firstIndex(of: "#") {
      fragment = String(rest[rest.index(after: hash)...])
      rest = rest[..<hash]
    }
    if let question = rest.firstIndex(of: "?") {
      query = String(rest[rest.index(after: question)...])
      rest = rest[..<question]
    }
    if let colon = rest.firstIndex(of: ":"), Self.isScheme(rest[..<colon]) {
      scheme = String(rest[..<colon])
      rest = rest[rest.index(after: colon)...]
    }
    if rest.hasPrefix("//") {
      rest = rest.dropFirst(2)
      let end = rest.firstIndex(of: "/") ?? rest.endIndex
      authority = String(rest[..<end])
      rest = rest[end...]
    }
    path = String(rest)
  }

  private init(scheme: String?, authority: String?, path: String, query: String?, fragment: String?) {
    self.scheme = scheme
    self.authority = authority
    self.path = path
    self.query = query
    self.fragment = fragment
  }

  private static func isScheme(_ text: Substring) -> Bool {
    guard let first = text.first, first.isASCII, first.isLetter else { return false }
    return text.allSatisfy {
      $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".")
    }
  }

  /// The text of the URI, recomposed.
  var text: String {
    var out = scheme.map { $0 + ":" } ?? ""
    if let authority { out += "//" + authority }
    out += path
    if let query { out += "?" + query }
    if let fragment { out += "#" + fragment }
    return out
  }

  /// The URI without its fragment: the schema resource a reference points into.
  var resource: String {
    var copy = self
    copy.fragment = nil
    return copy.text
  }

  /// `reference` resolved against this URI (RFC 3986 §5.2.2).
  func resolving(_ reference: String) -> SchemaURI {
    let relative = SchemaURI(reference)
    if relative.scheme != nil {
      return SchemaURI(
        scheme: relative.scheme, authority: relative.authority, path: Self.removingDotSegments(relative.path),
        query: relative.query, fragment: relative.fragment)
    }
    if relative.authority != nil {
      return SchemaURI(
        scheme: scheme, authority: relative.authority, path: Self.removingDotSegments(relative.path),
        query: relative.query, fragment: relative.fragment)
    }
    if relative.path.isEmpty {
      return SchemaURI(
        scheme: scheme, authority: authority, path: path, query: relative.query ?? query,
        fragment: relative.fragment)
    }
    let merged: String
    if relative.path.hasPrefix("/") {
      merged = relative.path
    } else if authority != nil && path.isEmpty {
      merged = "/" + relative.path
    } else {
      merged =
        String(path[..<(path.lastIndex(of: "/").map { path.index(after: $0) } ?? path.startIndex)])
        + relative.path
    }
    return SchemaURI(
      scheme: scheme, authority: authority, path: Self.removingDotSegments(merged), query: relative.query,
      fragment: relative.fragment)
  }

  /// RFC 3986 §5.2.4: `.` and `..` segments resolved.
  static func removingDotSegments(_ path: String) -> String {
    guard path.contains(".") else { return path }
    var output: [Substring] = []
    let segments = path.split(separator: "/", omittingEmptySubsequences: false)
    for (index, segment) in segments.enumerated() {
      let last = index == segments.count - 1
      switch segment {
      case ".":
        if last { output.append("") }
      case "..":
        if output.count > 1 || (output.count == 1 && !output[0].isEmpty) { output.removeLast() }
        if last { output.append("") }
      default: output.append(segment)
      }
    }
    let joined = output.joined(separator: "/")
    return path.hasPrefix("/") && !joined.hasPrefix("/") ? "/" + joined : joined
  }
}
