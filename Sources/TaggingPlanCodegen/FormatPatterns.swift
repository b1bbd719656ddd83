import TaggingPlan

/// The string formats generated code checks in debug builds, as regular expressions a whole value
/// must match: each agrees with the plan checker (``ValueFormat/accepts(_:)``) on ordinary values
/// (FormatPatternTests), so an app that sends a value `validate` would reject fails its `assert`
/// first. `date-time` and `uuid` values are `Date` and `UUID` and need none; `regex` is checked by
/// compiling the value.
enum FormatPatterns {
  private static let label = #"[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"#
  private static let octet = #"(?:25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])"#
  private static let date = #"[0-9]{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12][0-9]|3[01])"#
  private static let time =
    #"(?:[01][0-9]|2[0-3]):[0-5][0-9]:(?:[0-5][0-9]|60)(?:\.[0-9]+)?(?:[Zz]|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])"#
  private static let h16 = "[0-9A-Fa-f]{1,4}"
  private static let ls32 = "(?:\(h16):\(h16)|\(octet)(?:\\.\(octet)){3})"
  /// RFC 3986's IPv6address, its nine forms.
  private static let ipv6 = [
    "(?:\(h16):){6}\(ls32)", "::(?:\(h16):){5}\(ls32)", "(?:\(h16))?::(?:\(h16):){4}\(ls32)",
    "(?:(?:\(h16):){0,1}\(h16))?::(?:\(h16):){3}\(ls32)",
    "(?:(?:\(h16):){0,2}\(h16))?::(?:\(h16):){2}\(ls32)", "(?:(?:\(h16):){0,3}\(h16))?::\(h16):\(ls32)",
    "(?:(?:\(h16):){0,4}\(h16))?::\(ls32)", "(?:(?:\(h16):){0,5}\(h16))?::\(h16)",
    "(?:(?:\(h16):){0,6}\(h16))?::",
  ].map { "(?:\($0))" }.joined(separator: "|")
  private static let uriCharacter = #"(?:[A-Za-z0-9\-._~:/?#\[\]@!$&'()*+,;=]|%[0-9A-Fa-f]{2})"#
  private static let iriCharacter = #"(?:[^\x00-\x20<>"{}|\\^`%]|%[0-9A-Fa-f]{2})"#
  private static let scheme = "[A-Za-z][A-Za-z0-9+.-]*:"
  private static let atom = #"[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+"#
  private static let idnAtom = #"(?:[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]|[^\x00-\x7F])+"#
  private static let idnLabel =
    #"(?:[A-Za-z0-9]|[^\x00-\x7F])(?:(?:[A-Za-z0-9-]|[^\x00-\x7F]){0,61}(?:[A-Za-z0-9]|[^\x00-\x7F]))?"#
  private static let pointer = "(?:/(?:[^~/]|~[01])*)*"
  private static let varspec = "[A-Za-z0-9_.%]+(?::[1-9][0-9]{0,3}|\\*)?"

  /// The expression of each format a `String` value is checked for.
  static let patterns: [ValueFormat: String] = [
    .date: date,
    .time: time,
    .duration:
      "P(?:[0-9]+W|(?=[0-9]|T[0-9])(?:[0-9]+Y)?(?:[0-9]+M)?(?:[0-9]+D)?(?:T(?=[0-9])(?:[0-9]+H)?(?:[0-9]+M)?(?:[0-9]+S)?)?)",
    .email: "\(atom)(?:\\.\(atom))*@(?:\(label)(?:\\.\(label))*|\\[\(octet)(?:\\.\(octet)){3}\\])",
    .idnEmail:
      "\(idnAtom)(?:\\.\(idnAtom))*@(?:\(idnLabel)(?:\\.\(idnLabel))*|\\[\(octet)(?:\\.\(octet)){3}\\])",
    .hostname: "(?=.{1,253}$)\(label)(?:\\.\(label))*",
    .idnHostname: "\(idnLabel)(?:\\.\(idnLabel))*",
    .ipv4: "\(octet)(?:\\.\(octet)){3}",
    .ipv6: ipv6,
    .uri: "\(scheme)\(uriCharacter)*",
    .uriReference: "\(uriCharacter)*",
    .iri: "\(scheme)\(iriCharacter)*",
    .iriReference: "\(iriCharacter)*",
    .uriTemplate: "(?:[^{}\\x00-\\x20\"'<>\\\\^`|]|\\{[+#./;?&=,!@|]?\(varspec)(?:,\(varspec))*\\})*",
    .jsonPointer: pointer,
    .relativeJSONPointer: "(?:0|[1-9][0-9]*)(?:#|\(pointer))",
  ]

  /// Whether a `String` field of `rule` gets a format check.
  static func checks(_ format: ValueFormat?) -> Bool {
    guard let format else { return false }
    return format == .regex || patterns[format] != nil
  }
}
