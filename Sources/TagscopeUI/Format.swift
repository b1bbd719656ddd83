import TagscopeRecording

/// Number and time formats of the UI.
enum Format {
  /// The number the UI gives the record at timeline `index`: its 1-based position in the merged
  /// stream, unique across sources (each device's own `seq` starts at 1 and repeats; the record's
  /// JSON keeps it).
  static func number(_ index: Int) -> UInt64 { UInt64(max(0, index) + 1) }

  /// `1204` as `1,204`.
  static func grouped(_ value: Int) -> String {
    let digits = String(value.magnitude)
    var out = ""
    for (offset, digit) in digits.enumerated() {
      if offset > 0 && (digits.count - offset) % 3 == 0 { out.append(",") }
      out.append(digit)
    }
    return value < 0 ? "-" + out : out
  }

  /// Seconds since 1970 as UTC `HH:MM:SS.mmm`.
  static func clock(_ time: Double) -> String {
    let milliseconds = ISO8601Timestamp.milliseconds(seconds: time, rounding: .down)
    var ofDay = milliseconds % 86_400_000
    if ofDay < 0 { ofDay += 86_400_000 }
    return two(Int(ofDay / 3_600_000)) + ":" + two(Int(ofDay / 60_000 % 60)) + ":"
      + two(Int(ofDay / 1000 % 60)) + "." + three(Int(ofDay % 1000))
  }

  /// A duration as `HH:MM:SS`.
  static func elapsed(_ seconds: Double) -> String {
    let total = max(0, Int(seconds.rounded(.down)))
    return two(total / 3600) + ":" + two(total / 60 % 60) + ":" + two(total % 60)
  }

  /// A rate in events per second: `0.4/s`, `12/s`, `10,000/s`.
  static func rate(_ perSecond: Double) -> String {
    if perSecond < 10 && perSecond > 0 {
      return String(Double((perSecond * 10).rounded()) / 10) + "/s"
    }
    return grouped(Int(perSecond.rounded())) + "/s"
  }

  /// A speed factor: `1×`, `0.5×`, `16×`.
  static func speed(_ factor: Double) -> String {
    factor == factor.rounded() ? "\(Int(factor))×" : "\(factor)×"
  }

  private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
  private static func three(_ value: Int) -> String {
    value < 10 ? "00\(value)" : value < 100 ? "0\(value)" : "\(value)"
  }
}

/// Eight-level bars for sparklines.
enum Sparkline {
  static let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]

  /// One bar per value, scaled to the largest.
  static func bars(_ values: [Int]) -> String {
    let peak = values.max() ?? 0
    guard peak > 0 else { return String(repeating: levels[0], count: values.count) }
    return String(
      values.map { value in
        value == 0 ? levels[0] : levels[min(levels.count - 1, (value * levels.count - 1) / peak)]
      })
  }
}
