import TaggingPlan

/// Tells identity and content from names: a user id, an anonymous or message id, a timestamp, a
/// numeric id or free text is a *value* that changes from run to run; an event, a screen or a
/// state is a *name* a build decides. The one rule `tagscope diff` (calls named after the user
/// are compared by method) and `tagscope plan infer` (no `enum` of ids or free text) share.
///
/// A string is id-shaped when it is:
/// - a UUID (`123e4567-e89b-12d3-a456-426614174000`);
/// - long hexadecimal: 16 or more hex digits, at least one a decimal digit;
/// - digits only (`1334`, `0042`);
/// - a prefix of letters (words joined by `-` or `_` allowed) with a numeric tail: 3 or more
///   digits (`user1334`), 2 or more after a `-`, `_` or `:` (`user-42`), any after a prefix of one
///   or two letters (`u-4`, `p3`); more `-1`-like groups may follow (`s-1-1`);
/// - an email address (`name@example.com`);
/// - an ISO 8601 date (`2026-11-24`) or date-time (`2026-11-24T19:05:00Z`);
/// - an opaque token: 20 or more letters, digits, `-` and `_`, a quarter of them or more digits.
///
/// So `play_podcast`, `Screen Viewed`, `ipv6`, `level2` and `3.2.0` are names; `user-1334`, `p3`,
/// `mp3` and `12` are ids (a draft plan then leaves out an `enum` it could have had: the safe side).
public enum IdentityShape {
  /// SDK methods whose call name is the user's, device's or group's identity (Firebase
  /// `setUserID`, Amplitude `setUserId`/`setDeviceId`, Piano `setUser`, Braze `changeUser`,
  /// Segment/Mixpanel/Batch `identify`, Segment `group` and `alias`).
  public static let identityMethods: Set<String> = [
    "setUserID", "setUserId", "setDeviceId", "setUser", "changeUser", "identify", "group", "alias",
  ]

  /// A string value longer than this is free text, never an `enum`.
  public static let freeTextLength = 40

  /// Whether a call's `name` is an identity rather than a name: its method is one of
  /// ``identityMethods``, or the name is id-shaped.
  public static func isIdentityName(_ name: String, method: String) -> Bool {
    identityMethods.contains(method) || isIdShaped(name)
  }

  /// Whether a property or parameter named `key` (its last component, for a path) holds an
  /// identity or a time: `id`, `uuid`, `guid`, `email`, `timestamp`, a name ending in `_id`,
  /// `-id`, `_uuid`, `_timestamp`, `_at` or, in camel case, `Id`/`ID` (`podcastId`, `userID`),
  /// `Uuid`/`UUID`, `Timestamp`, `At` (`sentAt`).
  public static func isIdentityKey(_ key: String) -> Bool {
    let last = key.split(whereSeparator: { $0 == "." || $0 == "[" || $0 == "]" }).last.map(String.init) ?? key
    let lower = last.lowercased()
    if ["id", "uuid", "guid", "email", "timestamp"].contains(lower) { return true }
    for suffix in ["_id", "-id", "_uuid", "_guid", "_timestamp", "_at"] where lower.hasSuffix(suffix) {
      return true
    }
    for suffix in ["Id", "ID", "Uuid", "UUID", "Timestamp", "At"] where last.hasSuffix(suffix) {
      let before = last.dropLast(suffix.count).last
      if let before, before.isLowercase || before.isNumber { return true }
    }
    return false
  }

  /// Whether a string value is free text: longer than ``freeTextLength`` or on several lines.
  public static func isFreeText(_ text: String) -> Bool {
    text.utf8.count > freeTextLength || text.contains(where: \.isNewline)
  }

  /// Whether `text` is id-shaped (see the type's documentation).
  public static func isIdShaped(_ text: String) -> Bool {
    let bytes = Array(text.utf8)
    guard !bytes.isEmpty else { return false }
    if bytes.allSatisfy(isDigit) { return true }
    if isLongHex(bytes) || isPrefixedNumber(bytes) || isOpaqueToken(bytes) { return true }
    if isDate(bytes) { return true }
    return ValueFormat.uuid.accepts(text) || ValueFormat.dateTime.accepts(text)
      || ValueFormat.email.accepts(text)
  }

  private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

  private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }

  private static func isHex(_ byte: UInt8) -> Bool {
    isDigit(byte) || ((byte | 0x20) >= 97 && (byte | 0x20) <= 102)
  }

  private static func isSeparator(_ byte: UInt8) -> Bool { byte == 45 || byte == 95 || byte == 58 }

  private static func isLongHex(_ bytes: [UInt8]) -> Bool {
    bytes.count >= 16 && bytes.allSatisfy(isHex) && bytes.contains(where: isDigit)
  }

  /// `2026-11-24`.
  private static func isDate(_ bytes: [UInt8]) -> Bool {
    bytes.count == 10 && bytes[4] == 45 && bytes[7] == 45
      && bytes.enumerated().allSatisfy { $0.offset == 4 || $0.offset == 7 || isDigit($0.element) }
  }

  /// Letters (words joined by `-`/`_`), an optional separator, digits, then `-1`-like groups.
  private static func isPrefixedNumber(_ bytes: [UInt8]) -> Bool {
    var index = 0
    var letters = 0
    // The prefix: letters, possibly several words joined by a separator.
    while index < bytes.count {
      if isLetter(bytes[index]) {
        letters += 1
        index += 1
      } else if isSeparator(bytes[index]), index + 1 < bytes.count, isLetter(bytes[index + 1]), letters > 0 {
        index += 1
      } else {
        break
      }
    }
    guard letters > 0, index < bytes.count else { return false }
    let separated = isSeparator(bytes[index])
    if separated { index += 1 }
    let start = index
    while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    let digits = index - start
    guard digits > 0 else { return false }
    // More numeric groups: `s-1-1`.
    while index < bytes.count {
      guard isSeparator(bytes[index]), index + 1 < bytes.count, isDigit(bytes[index + 1]) else {
        return false
      }
      index += 1
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }
    return digits >= 3 || (separated && digits >= 2) || letters <= 2
  }

  private static func isOpaqueToken(_ bytes: [UInt8]) -> Bool {
    guard bytes.count >= 20, bytes.allSatisfy({ isLetter($0) || isDigit($0) || $0 == 45 || $0 == 95 }) else {
      return false
    }
    return bytes.count { isDigit($0) } * 4 >= bytes.count
  }
}
