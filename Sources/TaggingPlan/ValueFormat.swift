/// A string format a plan can require (`format`, JSON Schema's words), checked in time linear in
/// the value.
public enum ValueFormat: String, Sendable, Hashable, CaseIterable {
  /// RFC 3339 `2026-11-24T19:05:00Z`, `2026-11-24T19:05:00.123+01:00`.
  case dateTime = "date-time"
  /// `name@example.com`: one `@` between a non-empty local part and a dotted domain, no spaces.
  case email
  /// An absolute URI: a scheme (`https:`, `mailto:`, `urn:`) and no space or control character.
  case uri
  /// `123e4567-e89b-12d3-a456-426614174000`: 8-4-4-4-12 hexadecimal digits.
  case uuid

  /// Whether `text` has the format.
  public func accepts(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    switch self {
    case .dateTime: return Self.isDateTime(bytes)
    case .email: return Self.isEmail(bytes)
    case .uri: return Self.isURI(bytes)
    case .uuid: return Self.isUUID(bytes)
    }
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  private static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || (byte >= 97 && byte <= 102) || (byte >= 65 && byte <= 70)
  }

  private static func number(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    guard start + count <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[start..<start + count] {
      guard isDigit(byte) else { return nil }
      value = value * 10 + Int(byte - 48)
    }
    return value
  }

  private static func isDateTime(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 20, let year = number(bytes, 0, 4), bytes[4] == 45, let month = number(bytes, 5, 2),
      bytes[7] == 45, let day = number(bytes, 8, 2), [84, 116, 32].contains(bytes[10]),
      let hour = number(bytes, 11, 2), bytes[13] == 58, let minute = number(bytes, 14, 2), bytes[16] == 58,
      let second = number(bytes, 17, 2)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    guard (1...12).contains(month), (1...days[month - 1]).contains(day), hour < 24, minute < 60, second <= 60
    else { return false }
    var index = 19
    if index < bytes.count, bytes[index] == 46 {
      index += 1
      let start = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard index > start else { return false }
    }
    guard index < bytes.count else { return false }
    if bytes[index] == 90 || bytes[index] == 122 { return index + 1 == bytes.count }
    guard bytes[index] == 43 || bytes[index] == 45, index + 6 == bytes.count,
      let offsetHour = number(bytes, index + 1, 2), bytes[index + 3] == 58,
      let offsetMinute = number(bytes, index + 4, 2)
    else { return false }
    return offsetHour < 24 && offsetMinute < 60
  }

  private static func isEmail(_ bytes: [UInt8]) -> Bool {
    guard let at = bytes.firstIndex(of: 64), at > 0, at < bytes.count - 1,
      bytes.lastIndex(of: 64) == at, !bytes.contains(where: { $0 <= 32 || $0 == 127 })
    else { return false }
    let domain = bytes[(at + 1)...]
    guard domain.first != 46, domain.last != 46 else { return false }
    var previous: UInt8 = 0
    for byte in domain {
      if byte == 46 && previous == 46 { return false }
      previous = byte
    }
    return true
  }

  private static func isURI(_ bytes: [UInt8]) -> Bool {
    guard let first = bytes.first, (first | 0x20) >= 97, (first | 0x20) <= 122,
      let colon = bytes.firstIndex(of: 58), colon + 1 < bytes.count
    else { return false }
    for byte in bytes[1..<colon] {
      let letter = (byte | 0x20) >= 97 && (byte | 0x20) <= 122
      guard letter || isDigit(byte) || byte == 43 || byte == 45 || byte == 46 else { return false }
    }
    return !bytes.contains(where: { $0 <= 32 || $0 == 127 || $0 == 34 || $0 == 60 || $0 == 62 })
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
