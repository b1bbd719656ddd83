import Foundation

/// Formats and parses the millisecond UTC timestamps used in recordings (`2026-11-21T10:00:04.210Z`).
///
/// Hand-written rather than `ISO8601DateFormatter` because it runs once per record on hot paths.
public enum ISO8601Timestamp {
  /// `date` as `YYYY-MM-DDTHH:MM:SS.mmmZ` in UTC.
  public static func string(from date: Date) -> String {
    let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
    let days =
      totalMilliseconds >= 0 ? totalMilliseconds / 86_400_000 : (totalMilliseconds - 86_399_999) / 86_400_000
    let msOfDay = totalMilliseconds - days * 86_400_000
    let (year, month, day) = civilFromDays(days)
    let hour = msOfDay / 3_600_000
    let minute = (msOfDay / 60_000) % 60
    let second = (msOfDay / 1000) % 60
    let millisecond = msOfDay % 1000
    var out = ""
    out.reserveCapacity(24)
    append(&out, year, width: 4)
    out.append("-")
    append(&out, month, width: 2)
    out.append("-")
    append(&out, day, width: 2)
    out.append("T")
    append(&out, hour, width: 2)
    out.append(":")
    append(&out, minute, width: 2)
    out.append(":")
    append(&out, second, width: 2)
    out.append(".")
    append(&out, millisecond, width: 3)
    out.append("Z")
    return out
  }

  /// Parses `YYYY-MM-DDTHH:MM:SS[.fff…](Z|±HH:MM)`; `nil` when it is not such a timestamp.
  public static func date(from text: String) -> Date? {
    var text = text
    return text.withUTF8 { date(fromUTF8: $0) }
  }

  /// Parses a timestamp from raw UTF-8 bytes (see ``date(from:)``).
  public static func date(fromUTF8 bytes: UnsafeBufferPointer<UInt8>) -> Date? {
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
    var fraction: Double = 0
    if index < bytes.count, bytes[index] == 46 {
      index += 1
      var scale = 0.1
      let start = index
      while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
        fraction += Double(bytes[index] - 48) * scale
        scale /= 10
        index += 1
      }
      guard index > start else { return nil }
    }
    var offsetSeconds: Int64 = 0
    if index < bytes.count {
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
    }
    guard index == bytes.count else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds
    return Date(timeIntervalSince1970: Double(seconds) + fraction)
  }

  private static func append(_ out: inout String, _ value: Int64, width: Int) {
    let digits = String(value)
    if digits.count < width { out.append(String(repeating: "0", count: width - digits.count)) }
    out.append(digits)
  }

  // Howard Hinnant's civil-from-days / days-from-civil algorithms (proleptic Gregorian, UTC).
  private static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
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

  private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
    let y = month <= 2 ? year - 1 : year
    let era = (y >= 0 ? y : y - 399) / 400
    let yoe = y - era * 400
    let mp = month > 2 ? month - 3 : month + 9
    let doy = (153 * mp + 2) / 5 + day - 1
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
    return era * 146_097 + doe - 719_468
  }
}
