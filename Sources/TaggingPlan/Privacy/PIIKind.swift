/// A kind of personal data the privacy detectors find in the values providers receive.
public enum PIIKind: String, Sendable, Hashable, CaseIterable {
  /// An email address (`name@example.com`).
  case email
  /// A phone number: E.164 (`+33 6 12 34 56 78`), North American (`(212) 555-0143`) or a national
  /// form with a trunk `0` (`06 12 34 56 78`, `020 7946 0958`, `090-1234-5678`).
  case phone
  /// An advertising id (IDFA, GAID): a UUID under an advertising-id key or right after one.
  case advertisingID = "adid"
  /// An IPv4 or IPv6 address (not unspecified, loopback or broadcast).
  case ip
  /// A payment card number: 13 to 19 digits of a known card range, Luhn-valid.
  case card
  /// A precise geolocation: a latitude/longitude pair with at least 4 decimals.
  case geo
  /// A credential: a JSON Web Token, or a `Bearer`/`Basic` authorization value.
  case token

  /// The kinds, as a plan names them (`pii: [email, phone]`).
  public static var words: String { allCases.map(\.rawValue).joined(separator: ", ") }

  /// The kind's place in `allCases` (without building that array on every use).
  var index: Int {
    switch self {
    case .email: return 0
    case .phone: return 1
    case .advertisingID: return 2
    case .ip: return 3
    case .card: return 4
    case .geo: return 5
    case .token: return 6
    }
  }
}

/// One piece of personal data found in a text: its kind and its byte range in the text's UTF-8.
public struct PIIMatch: Sendable, Hashable {
  /// What was found.
  public var kind: PIIKind
  /// Where, in UTF-8 bytes of the text scanned.
  public var range: Range<Int>

  /// A match.
  public init(kind: PIIKind, range: Range<Int>) {
    self.kind = kind
    self.range = range
  }
}

/// A set of ``PIIKind``s (which detectors run, or which a plan allows).
public struct PIIKinds: OptionSet, Sendable, Hashable {
  public let rawValue: UInt8

  /// A set from its bits.
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// The set holding `kind`.
  public init(_ kind: PIIKind) {
    rawValue = 1 << UInt8(kind.index)
  }

  /// Every kind.
  public static let all = PIIKinds(rawValue: 0x7F)

  /// Whether `kind` is in the set.
  public func contains(_ kind: PIIKind) -> Bool { contains(PIIKinds(kind)) }
}
