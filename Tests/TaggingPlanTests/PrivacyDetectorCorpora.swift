@testable import TaggingPlan

/// The detectors' positive corpora, shared by ``PrivacyDetectorTests`` (each text is found) and
/// ``PrivacyDetectorLineTriggerTests`` (no line holding one is skipped): per kind, texts found
/// under no key or under the key given.
enum PIICorpus {
  static let emails = [
    "jo@example.com", "Jo.Smith+news@mail.example.co.uk",
    "contact me at a_b-c%d@sub-domain.example.org now",
    "<first.last@exämple.com>".replacingOccurrences(of: "ä", with: "a"), "x@y.io",
    "mailto:ops@tagscope.dev",
    "\"user@example.museum\"",
  ]
  static let phones = [
    "+33 6 12 34 56 78", "+33612345678", "+1 (212) 555-0143", "+44 20 7946 0958", "+49 30 12345678",
    "+81-90-1234-5678", "call 06 12 34 56 78 today", "06.12.34.56.78", "020 7946 0958", "07700 900123",
    "030/12345678", "0151 23456789", "090-1234-5678", "(212) 555-0143", "212-555-0143", "212.555.0143",
    "1-212-555-0143",
  ]
  /// Phone numbers found only under a phone key: key, texts.
  static let phonesUnderKeys = [
    ("phone_number", ["33612345678", "0612345678"]), ("userMobile", ["2125550143"]),
  ]
  static let idfa = "6D92078A-8246-4BA4-AE5B-76104861E7DC"
  static let gaid = "38400000-8cf0-11bd-b23e-10b96e40000d"
  /// Advertising ids under their keys: key, text.
  static let advertisingIDsUnderKeys = [
    ("idfa", idfa), ("gaid", gaid), ("advertisingIdentifier", idfa), ("advertising_id", gaid),
    ("device.ad_id", gaid), ("gps_adid", gaid),
  ]
  static let advertisingIDs = ["idfa=\(idfa)&x=1", "{\"gaid\":\"\(gaid)\"}", "advertising_id: \(gaid)"]
  static let ipAddresses = [
    "192.168.1.20", "8.8.8.8", "client 203.0.113.7:443 connected", "2001:db8::1",
    "fe80::1ff:fe23:4567:890a",
    "2001:0db8:85a3:0000:0000:8a2e:0370:7334", "::ffff:192.0.2.128", "[2001:db8::42]:8080",
  ]
  static let cardNumbers = [
    "4111111111111111", "4111 1111 1111 1111", "4111-1111-1111-1111", "5555555555554444",
    "2223003122003222",
    "378282246310005", "3782 822463 10005", "6011111111111117", "3530111333300000", "30569309025904",
    "4222222222222", "paid with 4012 8888 8888 1881.",
  ]
  static let geolocations = [
    "48.85661,2.35222", "40.7128, -74.0060", "-33.8688;151.2093", "at 35.6762 139.6503 now",
  ]
  static let jwt =
    "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"
  static let tokens = [
    jwt, "Bearer abcdef0123456789abcdef", "Authorization: bearer \(jwt)", "Basic dXNlcjpwYXNz",
  ]

  /// Every positive text with its kind and key (nil: found under no key).
  static var all: [(kind: PIIKind, key: String?, text: String)] {
    var all: [(PIIKind, String?, String)] = []
    all += emails.map { (.email, nil, $0) }
    all += phones.map { (.phone, nil, $0) }
    for (key, texts) in phonesUnderKeys { all += texts.map { (.phone, key, $0) } }
    all += advertisingIDsUnderKeys.map { (.advertisingID, $0.0, $0.1) }
    all += advertisingIDs.map { (.advertisingID, nil, $0) }
    all += ipAddresses.map { (.ip, nil, $0) }
    all += cardNumbers.map { (.card, nil, $0) }
    all += geolocations.map { (.geo, nil, $0) }
    all += tokens.map { (.token, nil, $0) }
    return all
  }
}
