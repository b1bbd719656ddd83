import Foundation

/// Formats and parses the millisecond UTC timestamps of recordings (`2026-11-21T10:00:04.210Z`),
/// straight from and to bytes, exact to the millisecond both ways.
///
/// Hand-written rather than `ISO8601DateFormatter` because it runs once per record on hot paths
/// (the hub's observers, the recording writer and reader).
public enum ISO8601Timestamp {
  /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC, rounded to the nearest millisecond.
  @inlinable public static func string(from date: Date) -> String {
    string(milliseconds: milliseconds(of: date))
  }

  /// Parses a timestamp (see ``milliseconds(fromUTF8:)``) into a date; `nil` when it is not one.
  @inlinable public static func date(from text: String) -> Date? {
    milliseconds(from: text).map(date(milliseconds:))
  }

  /// Parses a timestamp from raw UTF-8 bytes into a date.
  @inlinable public static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
    milliseconds(fromUTF8: bytes).map(date(milliseconds:))
  }

  /// `date` in whole milliseconds since 1970, rounded to the nearest (see
  /// ``milliseconds(seconds:rounding:)`` for dates out of range).
  @inlinable public static func milliseconds(of date: Date) -> Int64 {
    milliseconds(seconds: date.timeIntervalSince1970)
  }

  /// The first millisecond a recording can hold (0001-01-01T00:00:00.000Z).
  public static let earliest: Int64 = -62_135_596_800_000
  /// The last millisecond a recording can hold (9999-12-31T23:59:59.999Z).
  public static let latest: Int64 = 253_402_300_799_999

  /// `seconds` since 1970 in whole milliseconds, clamped to ``earliest``…``latest`` (NaN is 0): every
  /// time, however absurd (a client's `1e300`), converts without trapping and writes as a
  /// timestamp the reader reads back.
  @inlinable public static func milliseconds(
    seconds: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero
  ) -> Int64 {
    let milliseconds = (seconds * 1000).rounded(rule)
    guard !milliseconds.isNaN else { return 0 }
    return Int64(min(max(milliseconds, Double(earliest)), Double(latest)))
  }

  /// The date `milliseconds` after 1970.
  @inlinable public static func date(milliseconds: Int64) -> Date {
    Date(timeIntervalSince1970: Double(milliseconds) / 1000)
  }

  /// Writes `milliseconds` since 1970 as `YYYY-MM-DDTHH:MM:SS.mmmZ` at `out` (24 bytes; at most
  /// 30 for years outside 0…9999, which the parser then rejects clearly); returns the count.
  @inlinable public static func write(milliseconds: Int64, at out: UnsafeMutablePointer<UInt8>) -> Int {
    let days = milliseconds >= 0 ? milliseconds / 86_400_000 : (milliseconds - 86_399_999) / 86_400_000
    let msOfDay = milliseconds - days * 86_400_000
    let (year, month, day) = civilFromDays(days)
    var position = 0
    if year < 0 || year > 9999 {
      for byte in String(year).utf8 {
        out[position] = byte
        position += 1
      }
    } else {
      digits(year, 4, out, &position)
    }
    func put(_ byte: UInt8) {
      out[position] = byte
      position += 1
    }
    put(UInt8(ascii: "-"))
    digits(month, 2, out, &position)
    put(UInt8(ascii: "-"))
    digits(day, 2, out, &position)
    put(UInt8(ascii: "T"))
    digits(msOfDay / 3_600_000, 2, out, &position)
    put(UInt8(ascii: ":"))
    digits((msOfDay / 60_000) % 60, 2, out, &position)
    put(UInt8(ascii: ":"))
    digits((msOfDay / 1000) % 60, 2, out, &position)
    put(UInt8(ascii: "."))
    digits(msOfDay % 1000, 3, out, &position)
    put(UInt8(ascii: "Z"))
    return position
  }

  /// Appends the timestamp of `milliseconds` to `out`.
  @inlinable public static func write(milliseconds: Int64, into out: inout [UInt8]) {
    withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
      let count = write(milliseconds: milliseconds, at: buffer.baseAddress!)
      out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
    }
  }

  /// The timestamp of `milliseconds` since 1970 as a string.
  @inlinable public static func string(milliseconds: Int64) -> String {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(24)
    write(milliseconds: milliseconds, into: &bytes)
    return String(decoding: bytes, as: UTF8.self)
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)` into milliseconds since 1970 (digits beyond the
  /// millisecond are ignored); `nil` when the text is not such a timestamp.
  @inlinable public static func milliseconds(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Int64? {
    guard bytes.count >= 19 else { return nil }
    func number(_ start: Int, _ length: Int) -> Int64? {
      var value: Int64 = 0
      for index in start..<(start + length) {
        let byte = bytes[index]
        guard byte >= 48, byte <= 57 else { return nil }
        value = value * 10 + Int64(byte - 48)
      }
      return value
    }
    guard bytes[4] == 45, bytes[7] == 45, bytes[10] == 84 || bytes[10] == 116 || bytes[10] == 32,
      bytes[13] == 58, bytes[16] == 58,
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
      let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var millisecond: Int64 = 0
    if index < bytes.count, bytes[index] == 46 {
      index += 1
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        if index - start < 3 { millisecond = millisecond * 10 + Int64(bytes[index] - 48) }
        index += 1
      }
      guard index > start else { return nil }
      for _ in min(index - start, 3)..<3 { millisecond *= 10 }
    }
    var offsetSeconds: Int64 = 0
    guard index < bytes.count else { return nil }
    let marker = bytes[index]
    if marker == 90 || marker == 122 {
      index += 1
    } else if marker == 43 || marker == 45, index + 6 <= bytes.count, bytes[index + 3] == 58,
      let hours = number(index + 1, 2), let minutes = number(index + 4, 2)
    {
      offsetSeconds = (hours * 3600 + minutes * 60) * (marker == 43 ? 1 : -1)
      index += 6
    } else {
      return nil
    }
    guard index == bytes.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return seconds * 1000 + millisecond
  }

  /// Parses a timestamp string into milliseconds since 1970 (see ``milliseconds(fromUTF8:)``).
  @inlinable public static func milliseconds(from text: String) -> Int64? {
    var text = text
    return text.withUTF8 { milliseconds(fromUTF8: $0) }
  }

  @inlinable static func digits(
    _ value: Int64, _ width: Int, _ out: UnsafeMutablePointer<UInt8>, _ position: inout Int
  ) {
    var rest = value
    for offset in stride(from: width - 1, through: 0, by: -1) {
      out[position + offset] = UInt8(48 + rest % 10)
      rest /= 10
    }
    position += width
  }

  // Howard Hinnant's civil-from-days / days-from-civil algorithms (proleptic Gregorian, UTC).
  @inlinable static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
    let z = days + 719_468
    let era = (z >= 0 ? z : z - 146_096) / 146_097
    let doe = z - era * 146_097
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
    let y = yoe + era * 400
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
    let mp = (5 * doy + 2) / 153
    let d = doy - (153 * mp + 2) / 5 + 1
    let m = mp < 10 ? mp + 3 : mp - 9
    return (m <= 2 ? y + 1 : y, m, d)
  }

  @inlinable static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
