import NIOCore

/// Why a text is no host the proxy accepts: a sentence naming the problem, for a `400` or a
/// command-line error.
public struct HostProblem: Error, Equatable, CustomStringConvertible {
  /// The sentence.
  public let description: String
}

/// The one check of a host as the proxy takes it (a `CONNECT` target, an absolute-form URI, a
/// host option): a DNS name of labels of 1 to 63 letters, digits, `-` or `_` (no `-` at either
/// end), 253 characters at most, one trailing dot (the fully qualified form) dropped; or an IPv4
/// address; or an IPv6 address in brackets.
enum HostName {
  /// The longest name, without its trailing dot (RFC 1035 §2.3.4).
  static let maximumLength = 253
  /// The longest label (RFC 1035 §2.3.4).
  static let maximumLabelLength = 63

  /// `text` (brackets removed) lowercased and without its trailing dot, or why it is no host.
  static func check(_ text: Substring, bracketed: Bool) -> Result<String, HostProblem> {
    if bracketed {
      guard text.contains(":"), !text.contains("%"),
        (try? SocketAddress(ipAddress: String(text), port: 0)) != nil
      else { return .failure(HostProblem(description: "[\(excerpt(text))] is not an IPv6 address")) }
      return .success(text.lowercased())
    }
    if text.contains(":") {
      return .failure(HostProblem(description: "an IPv6 address goes in brackets, as [::1]:443"))
    }
    let name = text.hasSuffix(".") ? text.dropLast() : text
    guard !name.isEmpty else {
      return .failure(
        HostProblem(description: text.isEmpty ? "the host is empty" : "the host \"\(text)\" has no name"))
    }
    for label in name.split(separator: ".", omittingEmptySubsequences: false) {
      if let problem = labelProblem(label, in: text) { return .failure(HostProblem(description: problem)) }
    }
    guard name.count <= maximumLength else {
      return .failure(
        HostProblem(
          description: "the host name is \(name.count) characters long (at most \(maximumLength))"))
    }
    return .success(name.lowercased())
  }

  private static func labelProblem(_ label: Substring, in name: Substring) -> String? {
    guard !label.isEmpty else {
      return "the host name \"\(excerpt(name))\" has an empty label (a leading dot or two dots in a row)"
    }
    guard label.count <= maximumLabelLength else {
      return
        "the label \"\(excerpt(label))\" is \(label.count) characters long (at most \(maximumLabelLength))"
    }
    if let bad = label.unicodeScalars.first(where: { !isLabelCharacter($0) }) {
      return "a host name has no \(describe(bad)) (letters, digits, - and _ only)"
    }
    if label.hasPrefix("-") || label.hasSuffix("-") {
      return "the label \"\(excerpt(label))\" starts or ends with -"
    }
    return nil
  }

  private static func isLabelCharacter(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
    default: false
    }
  }

  private static func describe(_ scalar: Unicode.Scalar) -> String {
    scalar.isASCII && scalar.value >= 0x21 && scalar.value < 0x7F
      ? "\"\(Character(scalar))\"" : "U+\(String(scalar.value, radix: 16, uppercase: true))"
  }

  /// The first characters of `text`, printable ASCII only (the rest is reported by its code).
  private static func excerpt(_ text: Substring) -> String {
    let safe = String(
      text.unicodeScalars.prefix(24).map {
        $0.isASCII && $0.value >= 0x20 && $0.value < 0x7F ? Character($0) : "?"
      })
    return text.unicodeScalars.count > 24 ? safe + "…" : safe
  }
}
