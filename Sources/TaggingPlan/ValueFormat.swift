/// A string format a plan can require (`format`, JSON Schema's words), checked in time linear in
/// the value.
public enum ValueFormat: String, Sendable, Hashable, CaseIterable {
  /// RFC 3339 `2026-11-24T19:05:00Z`, `2026-11-24T19:05:00.123+01:00`.
  case dateTime = "date-time"
  /// RFC 3339 full-date `2026-11-24`.
  case date
  /// RFC 3339 full-time `19:05:00Z`, `19:05:00.5+01:00` (an offset is required).
  case time
  /// RFC 3339 (ISO 8601) duration `P1DT12H`, `PT0S`, `P2W`.
  case duration
  /// RFC 5321 mailbox `name@example.com`, `"joe bloggs"@[127.0.0.1]`.
  case email
  /// ``email`` allowing non-ASCII letters (RFC 6531).
  case idnEmail = "idn-email"
  /// RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens.
  case hostname
  /// ``hostname`` allowing non-ASCII labels (RFC 5890).
  case idnHostname = "idn-hostname"
  /// Dotted-quad IPv4 `192.168.0.1`, no leading zeros.
  case ipv4
  /// RFC 4291 IPv6 text `2001:db8::1`, `::ffff:192.168.0.1`.
  case ipv6
  /// RFC 3986 absolute URI: a scheme (`https:`, `mailto:`, `urn:`) and valid parts.
  case uri
  /// RFC 3986 URI or relative reference (`/path`, `#fragment`).
  case uriReference = "uri-reference"
  /// RFC 3987 IRI: ``uri`` allowing non-ASCII characters.
  case iri
  /// RFC 3987 IRI or relative reference.
  case iriReference = "iri-reference"
  /// `123e4567-e89b-12d3-a456-426614174000`: 8-4-4-4-12 hexadecimal digits.
  case uuid
  /// RFC 6570 URI template `https://example.com/{id}{?q*}`.
  case uriTemplate = "uri-template"
  /// RFC 6901 JSON pointer `/a/b~1c`.
  case jsonPointer = "json-pointer"
  /// Relative JSON pointer `0/a`, `1#`.
  case relativeJSONPointer = "relative-json-pointer"
  /// A regular expression `pattern` accepts.
  case regex

  /// Whether `text` has the format.
  public func accepts(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    switch self {
    case .dateTime: return Self.isDateTime(bytes)
    case .date: return Self.isDate(bytes)
    case .time: return Self.isTime(bytes[...])
    case .duration: return Self.isDuration(bytes)
    case .email: return Self.isEmail(bytes, international: false)
    case .idnEmail: return Self.isEmail(bytes, international: true)
    case .hostname: return Self.isHostname(bytes[...], international: false)
    case .idnHostname: return Self.isHostname(bytes[...], international: true)
    case .ipv4: return Self.isIPv4(bytes[...])
    case .ipv6: return Self.isIPv6(bytes[...])
    case .uri: return URIText.accepts(bytes, relative: false, international: false)
    case .uriReference: return URIText.accepts(bytes, relative: true, international: false)
    case .iri: return URIText.accepts(bytes, relative: false, international: true)
    case .iriReference: return URIText.accepts(bytes, relative: true, international: true)
    case .uuid: return Self.isUUID(bytes)
    case .uriTemplate: return Self.isURITemplate(bytes)
    case .jsonPointer: return Self.isJSONPointer(bytes[...])
    case .relativeJSONPointer: return Self.isRelativeJSONPointer(bytes)
    case .regex: return (try? PlanPattern(text)) != nil
    }
  }

  static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
  }

  static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    guard start + count <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[start..<start + count] {
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    return value
  }

  private static func isUUID(_ bytes: [UInt8]) -> Bool {
    guard bytes.count == 36 else { return false }
    for (index, byte) in bytes.enumerated() {
      if [8, 13, 18, 23].contains(index) {
        guard byte == 45 else { return false }
      } else if !isHex(byte) {
        return false
      }
    }
    return true
  }
}
