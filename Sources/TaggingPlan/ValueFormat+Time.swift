/// RFC 3339 dates, times and durations.
extension ValueFormat {
  static func isDate(_ bytes: [UInt8]) -> Bool {
    bytes.count == 10 && isDate(bytes, at: 0)
  }

  /// `yyyy-mm-dd` at `start`, a real day of a real month.
  private static func isDate(_ bytes: [UInt8], at start: Int) -> Bool {
    guard start + 10 <= bytes.count, let year = number(bytes, start, 4), bytes[start + 4] == 45,
      let month = number(bytes, start + 5, 2), bytes[start + 7] == 45, let day = number(bytes, start + 8, 2),
      (1...12).contains(month)
    else { return false }
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
    return (1...days[month - 1]).contains(day)
  }

  static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool { isTime(Array(bytes), at: 0) }

  static func isDateTime(_ bytes: [UInt8]) -> Bool {
    bytes.count > 11 && isDate(bytes, at: 0) && (bytes[10] == 84 || bytes[10] == 116) && isTime(bytes, at: 11)
  }

  /// `hh:mm:ss[.fraction]` and `Z` or `±hh:mm` from `start` to the end; a leap second only at
  /// 23:59:60 UTC.
  private static func isTime(_ bytes: [UInt8], at start: Int) -> Bool {
    guard let hour = number(bytes, start, 2), start + 8 <= bytes.count, bytes[start + 2] == 58,
      let minute = number(bytes, start + 3, 2), bytes[start + 5] == 58,
      let second = number(bytes, start + 6, 2),
      hour < 24, minute < 60, second <= 60
    else { return false }
    var index = start + 8
    if index < bytes.count, bytes[index] == 46 {
      index += 1
      let digits = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard index > digits else { return false }
    }
    guard index < bytes.count else { return false }
    var offset = 0
    if bytes[index] == 90 || bytes[index] == 122 {
      guard index + 1 == bytes.count else { return false }
    } else {
      guard bytes[index] == 43 || bytes[index] == 45, index + 6 == bytes.count,
        let offsetHour = number(bytes, index + 1, 2), bytes[index + 3] == 58,
        let offsetMinute = number(bytes, index + 4, 2), offsetHour < 24, offsetMinute < 60
      else { return false }
      offset = (offsetHour * 60 + offsetMinute) * (bytes[index] == 43 ? 1 : -1)
    }
    guard second == 60 else { return true }
    let utc = ((hour * 60 + minute - offset) % 1440 + 1440) % 1440
    return utc == 23 * 60 + 59
  }

  /// `P` then years, months, days (in that order, none skipped between two given) and a `T` part
  /// of hours, minutes, seconds (likewise), or weeks alone.
  static func isDuration(_ bytes: [UInt8]) -> Bool {
    guard bytes.first == 80, bytes.count > 1 else { return false }
    var units: [UInt8] = []
    var index = 1
    var inTime = false
    var timeStart = -1
    while index < bytes.count {
      if bytes[index] == 84 {
        guard !inTime else { return false }
        inTime = true
        timeStart = units.count
        index += 1
        continue
      }
      let digits = index
      while index < bytes.count, isDigit(bytes[index]) { index += 1 }
      guard index > digits, index < bytes.count else { return false }
      units.append(bytes[index] | (inTime ? 0x80 : 0))
      index += 1
    }
    guard !units.isEmpty, !inTime || timeStart < units.count else { return false }
    if units == [87] { return true }
    let date = inTime ? Array(units[..<timeStart]) : units
    let time = inTime ? units[timeStart...].map { $0 & 0x7F } : []
    return isRun(date, of: [89, 77, 68]) && isRun(time, of: [72, 77, 83])
  }

  /// Whether `units` are consecutive letters of `order` (`YM`, `MD`, not `YD` nor `DY`).
  private static func isRun(_ units: [UInt8], of order: [UInt8]) -> Bool {
    guard let first = units.first else { return true }
    guard let start = order.firstIndex(of: first), start + units.count <= order.count else { return false }
    return Array(order[start..<start + units.count]) == units
  }
}
