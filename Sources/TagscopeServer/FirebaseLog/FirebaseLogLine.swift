import Foundation

/// What one log line is, before any state: a line that starts a Firebase entry (the phrase that
/// opens it, the process its prefix names), an SDK line of no interest, or plain text (a
/// continuation of a multi-line entry, or anything else).
///
/// The phrases are those the SDKs print (real lines in `Tests/Fixtures/firebase-log`): iOS
/// `[FirebaseAnalytics][I-ACS023051] Logging event: origin, name, params: …`,
/// `[I-ACS023080] Setting user property. Name, value: …`, `[I-ACS023075] Removing user property.
/// Name: …`; Android `Logging event: origin=…,name=…,params=Bundle[{…}]` (tag `FA-SVC`),
/// `Logging event (FE): …`, `Setting user property (FE): …` and `Setting user property: …`
/// (tag `FA`). Android's service (`FA-SVC`) restates what the app's `FA` lines logged: `Logging
/// event: origin=…`, `Setting user property: …` after an `(FE)` line, and `Event recorded:
/// Event{appId='…', name='…', params=Bundle[{…}]}` after an event. iOS also restates each event and user property after it was taken: `[I-ACS023073]
/// Debug mode is enabled. Marking event as debug and real-time. Event name, parameters: …`,
/// `[I-ACS023072] Event logged. Event name, event params: …`, `[I-ACS023087] User property set.
/// Name, value: …`, `[I-ACS023078] User property removed. Name: …` (any message ending in `Event
/// name, parameters:` is read as a restatement); a paste may hold these alone. The 2017 SDK wrote
/// the same phrases after `<FIRAnalytics/DEBUG>`. Whatever prefix a console adds before them
/// (Xcode, `log stream` in any style, logcat in any format) is skipped; the process is read from it
/// when it names one.
struct FirebaseLogLine {
  /// The entries a phrase opens.
  enum Phrase: CaseIterable {
    case iOSEvent, androidEvent, androidFrontEndEvent
    case iOSSetProperty, iOSRemoveProperty, androidFrontEndSetProperty, androidSetProperty
    /// Restatements of what an iOS SDK took (see ``isRestatement``).
    case iOSEventLogged, iOSEventRestated, iOSPropertySet, iOSPropertyRemoved
    /// Android's service restating an event it stored (see ``isRestatement``).
    case androidEventRecorded

    var text: StaticString {
      switch self {
      case .iOSEvent: "Logging event: origin, name, params: "
      case .androidEvent: "Logging event: origin="
      case .androidFrontEndEvent: "Logging event (FE): "
      case .iOSSetProperty: "Setting user property. Name, value: "
      case .iOSRemoveProperty: "Removing user property. Name: "
      case .androidFrontEndSetProperty: "Setting user property (FE): "
      case .androidSetProperty: "Setting user property: "
      case .iOSEventLogged: "Event name, event params: "
      case .iOSEventRestated: "Event name, parameters: "
      case .iOSPropertySet: "User property set. Name, value: "
      case .iOSPropertyRemoved: "User property removed. Name: "
      case .androidEventRecorded: "Event recorded: "
      }
    }

    var platform: FirebaseLogPlatform {
      switch self {
      case .androidEvent, .androidFrontEndEvent, .androidFrontEndSetProperty, .androidSetProperty,
        .androidEventRecorded:
        .android
      default: .iOS
      }
    }

    /// Events carry a parameters block that may span lines; user property lines are one line.
    var isEvent: Bool {
      switch self {
      case .iOSEvent, .androidEvent, .androidFrontEndEvent, .iOSEventLogged, .iOSEventRestated,
        .androidEventRecorded:
        true
      default: false
      }
    }

    /// A line the SDK prints after it took an event or user property, restating it (the same
    /// call again, which the app made once); the first line of a call is the others. On
    /// Android the service's `Logging event: origin=…` and `Setting user property: …` restate
    /// the app's `(FE)` lines, and a log may hold either alone.
    var isRestatement: Bool {
      switch self {
      case .iOSEventLogged, .iOSEventRestated, .iOSPropertySet, .iOSPropertyRemoved, .androidEventRecorded,
        .androidEvent, .androidSetProperty:
        true
      default: false
      }
    }
  }

  enum Kind {
    /// A line that opens an entry: its phrase, the text after the phrase, the prefix's process,
    /// and whether the prefix is the Apple System Log's (`MyApp[342] <Debug>`), which older Xcode
    /// consoles print right after the same message's unified-log line: an echo, not a new entry.
    /// `wording` names the message: its id (`I-ACS023072`), else its words before the phrase;
    /// `lead` is a restatement's words before its phrase (`Event logged. `), for its raw text.
    case entry(
      Phrase, body: Substring, process: String?, processID: String?, echo: Bool, time: Date?, wording: String,
      lead: Substring)
    /// An SDK line (`[FirebaseAnalytics][I-…]`, `<FIRAnalytics/…>` or a logcat `FA`/`FA-SVC`
    /// line) that opens no entry: its message, to skip its own multi-line block, and its id
    /// (`I-ACS023044`) when it has one.
    case other(message: Substring, android: Bool, id: Substring?)
    /// Anything else.
    case text
  }

  static func classify(_ line: Substring) -> Kind {
    if let found = phrase(in: line) {
      let prefix = line[..<found.range.lowerBound]
      let body = line[found.range.upperBound...]
      let wording = wording(prefix, phrase: found.phrase)
      if found.phrase.platform == .android, let android = AndroidPrefix(prefix) {
        return .entry(
          found.phrase, body: body, process: android.process, processID: android.processID, echo: false,
          time: logcatTimestamp(prefix), wording: wording, lead: "")
      }
      let lead = found.phrase.isRestatement ? message(prefix) : prefix[prefix.endIndex...]
      let process = iOSProcess(prefix)
      let levels: [StaticString] = [" <Debug> ", " <Info> ", " <Notice> ", " <Warning> ", " <Error> "]
      let echo = levels.contains { find($0, in: prefix) != nil }
      return .entry(
        found.phrase, body: body, process: process?.name, processID: process?.id, echo: echo,
        time: timestamp(prefix), wording: wording, lead: lead)
    }
    if let (which, marker) = first(of: markers, in: line) {
      if which == 0, let end = line[marker.upperBound...].firstIndex(of: "]") {
        let id = line[line.index(marker.lowerBound, offsetBy: 2)..<end]
        return .other(message: line[line.index(after: end)...], android: false, id: id)
      }
      if which == 1, let end = line[marker.upperBound...].firstIndex(of: ">") {
        return .other(message: line[line.index(after: end)...].drop { $0 == " " }, android: false, id: nil)
      }
    }
    if find("FA", in: line) != nil, let android = AndroidPrefix(line), let message = android.message {
      return .other(message: message, android: true, id: nil)
    }
    return .text
  }

  /// The message id in an iOS prefix (`…[FirebaseAnalytics][I-ACS023072] Event logged. `), else
  /// the words after its last `]` or `>` (`Event logged.` after `<FIRAnalytics/DEBUG>`), else the
  /// phrase's own words: what tells one restatement of a call from another.
  static func wording(_ prefix: Substring, phrase: Phrase) -> String {
    if let marker = find("[I-", in: prefix), let end = prefix[marker.upperBound...].firstIndex(of: "]") {
      return String(prefix[prefix.index(after: marker.lowerBound)..<end])
    }
    let words = FirebaseLogValueReader.trimSpaces(message(prefix))
    return words.isEmpty ? "\(phrase.text)" : String(words.prefix(60))
  }

  /// The start of the message in an iOS prefix: what follows its last `]` or `>` (or spaces).
  static func message(_ prefix: Substring) -> Substring {
    guard let last = prefix.lastIndex(where: { $0 == "]" || $0 == ">" }) else {
      return prefix[prefix.endIndex...]
    }
    return prefix[prefix.index(after: last)...].drop { $0 == " " }
  }

  /// iOS messages known to carry no event or user property, by id (real lines in
  /// `Tests/Fixtures/firebase-log`): they are not counted as not understood.
  static let understood: [Substring: String] = [
    "I-ACS023007": "Analytics started", "I-ACS023008": "how to disable debug logging",
    "I-ACS023009": "debug logging enabled",
    "I-ACS023278": "Google Ads on-device conversion framework linked",
  ]

  /// The wording an SDK line that opens no entry is counted under as not understood (its id, or
  /// its first words), or `nil` when it is not an Analytics line (another Firebase module's
  /// `[I-COR…]`), a message known to carry nothing, or the indented or closing line of a dump
  /// (logcat prints a multi-line message as lines of its own).
  static func unreadWording(_ message: Substring, android: Bool, id: Substring?) -> String? {
    if let id {
      guard id.hasPrefix("I-ACS"), understood[id] == nil else { return nil }
      return String(id)
    }
    guard let first = message.first, first != " ", first != "\t", first != "}", first != "{",
      !(android && isDumpLine(message))
    else { return nil }
    let stops: Set<Character> = [":", ",", "=", "(", "[", "{", "'", "\""]
    let words = message.prefix { !stops.contains($0) && !$0.isNumber }.prefix(60)
    let trimmed = FirebaseLogValueReader.trimSpaces(words)
    return (android ? "FA " : "FIRAnalytics ") + (trimmed.isEmpty ? "…" : trimmed)
  }

  /// A line of the measurement service's upload dump, protobuf text (`param {`, `name:
  /// firebase_screen_id(_si)`, `int_value: -2584049881413805869`), as logcat prints it line by
  /// line: a lowercase field name, then ` {` or `:`.
  static func isDumpLine(_ message: Substring) -> Bool {
    let field = message.utf8.prefix { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F }
    guard !field.isEmpty else { return false }
    let rest = message.utf8[field.endIndex...]
    return rest.first == UInt8(ascii: ":") || rest.elementsEqual(" {".utf8)
  }

  /// The decimal number of `count` ASCII digits at `start` of `bytes`; `nil` when one is not a
  /// digit or the bytes end first.
  static func decimal(_ bytes: [UInt8], _ start: Int, _ count: Int) -> Int? {
    guard start >= 0, start + count <= bytes.count else { return nil }
    var value = 0
    for byte in bytes[start..<start + count] {
      guard (0x30...0x39).contains(byte) else { return nil }
      value = value * 10 + Int(byte - 0x30)
    }
    return value
  }

  /// The time at the start of an Apple console prefix, `2022-10-10 09:11:14.373105-0500` (a
  /// fraction of any length, the zone as `±HHMM`); `nil` for any other start (logcat's
  /// `03-03 09:39:28.947` names no year or zone).
  static func timestamp(_ prefix: Substring) -> Date? {
    let bytes = Array(prefix.utf8.prefix(40))
    func number(_ start: Int, _ count: Int) -> Int? { decimal(bytes, start, count) }
    guard bytes.count >= 24, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
      bytes[10] == UInt8(ascii: " "), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
      let year = number(0, 4), let month = number(5, 2), let day = number(8, 2), let hour = number(11, 2),
      let minute = number(14, 2), let second = number(17, 2), (1...12).contains(month),
      (1...31).contains(day),
      hour < 24, minute < 60, second < 61
    else { return nil }
    var index = 19
    var fraction = 0.0
    if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
      index += 1
      var scale = 0.1
      while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
        fraction += Double(bytes[index] - 0x30) * scale
        scale /= 10
        index += 1
      }
    }
    guard index + 5 <= bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-"),
      let zoneHours = number(index + 1, 2), let zoneMinutes = number(index + 3, 2)
    else { return nil }
    let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
    var components = DateComponents()
    (components.year, components.month, components.day) = (year, month, day)
    (components.hour, components.minute, components.second) = (hour, minute, second)
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = TimeZone(secondsFromGMT: sign * (zoneHours * 3600 + zoneMinutes * 60)) ?? .gmt
    return calendar.date(from: components).map { $0.addingTimeInterval(fraction) }
  }

  /// The time at the start of a logcat line, in the device's local time as logcat prints it:
  /// threadtime and time `03-03 09:39:28.947` (no year: the year of `now`, or the year before
  /// when that would put it more than a day after `now`, a log of December read in January), or
  /// Android Studio's `2024-03-03 09:39:28.947`; read in `zone` (this machine's, the emulator's
  /// and usually the phone's); `nil` for a line without one (brief).
  static func logcatTimestamp(_ prefix: Substring, now: Date = Date(), zone: TimeZone = .current) -> Date? {
    let bytes = Array(prefix.utf8.prefix(24))
    func number(_ start: Int, _ count: Int) -> Int? { decimal(bytes, start, count) }
    let hasYear = bytes.count > 4 && bytes[4] == UInt8(ascii: "-")
    let start = hasYear ? 5 : 0
    guard bytes.count >= start + 18, bytes[start + 2] == UInt8(ascii: "-"),
      bytes[start + 5] == UInt8(ascii: " "),
      bytes[start + 8] == UInt8(ascii: ":"), bytes[start + 11] == UInt8(ascii: ":"),
      bytes[start + 14] == UInt8(ascii: "."),
      let month = number(start, 2), let day = number(start + 3, 2), let hour = number(start + 6, 2),
      let minute = number(start + 9, 2), let second = number(start + 12, 2),
      let milliseconds = number(start + 15, 3),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    var calendar = Calendar(identifier: .gregorian)
    calendar.timeZone = zone
    func date(year: Int) -> Date? {
      let components = DateComponents(
        year: year, month: month, day: day, hour: hour, minute: minute, second: second)
      return calendar.date(from: components).map { $0.addingTimeInterval(Double(milliseconds) / 1000) }
    }
    if hasYear { return number(0, 4).flatMap(date(year:)) }
    let year = calendar.component(.year, from: now)
    guard let this = date(year: year) else { return nil }
    return this.timeIntervalSince(now) > 86_400 ? date(year: year - 1) : this
  }

  /// Where `needle` (ASCII) first occurs in `text`: a byte scan, for the lines of other tags a
  /// device log is mostly made of.
  static func find(_ needle: StaticString, in text: Substring) -> Range<Substring.Index>? {
    let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
    guard let first = pattern.first else { return nil }
    let utf8 = text.utf8
    let offset: Int?? = utf8.withContiguousStorageIfAvailable { bytes -> Int? in
      guard bytes.count >= pattern.count else { return nil }
      var index = 0
      let last = bytes.count - pattern.count
      while index <= last {
        if bytes[index] == first {
          var matched = true
          for position in 1..<pattern.count where bytes[index + position] != pattern[position] {
            matched = false
            break
          }
          if matched { return index }
        }
        index += 1
      }
      return nil
    }
    if let found = offset {
      guard let found else { return nil }
      let lower = utf8.index(utf8.startIndex, offsetBy: found)
      return lower..<utf8.index(lower, offsetBy: pattern.count)
    }
    // Not contiguous (a bridged string): the same scan on the view.
    var index = utf8.startIndex
    while let start = utf8[index...].firstIndex(of: first) {
      var candidate = start
      var matched = true
      for byte in pattern {
        guard candidate < utf8.endIndex, utf8[candidate] == byte else {
          matched = false
          break
        }
        candidate = utf8.index(after: candidate)
      }
      if matched { return start..<candidate }
      index = utf8.index(after: start)
    }
    return nil
  }

  /// What every phrase holds, at most 9 bytes from its start.
  private static let stems: [StaticString] = [
    "Logging event", "user property", "Event name, ", "User property ", "Event recorded",
  ]
  /// What starts an SDK line that is no entry: an iOS message id, the 2017 SDK's tag.
  private static let markers: [StaticString] = ["][I-", "<FIRAnalytics/"]

  /// The first phrase in `line` and where it is.
  private static func phrase(in line: Substring) -> (phrase: Phrase, range: Range<Substring.Index>)? {
    // Most lines of a device log are other tags': look for the stems first, in one pass.
    guard let (_, stem) = first(of: stems, in: line) else { return nil }
    let from = line.index(stem.lowerBound, offsetBy: -9, limitedBy: line.startIndex) ?? line.startIndex
    // A phrase starts at most 9 bytes before its stem: try those places before the whole line.
    let window = line[from..<stem.lowerBound].utf8.indices + [stem.lowerBound]
    for start in window {
      for phrase in Phrase.allCases where starts(line[start...], with: phrase.text) {
        return (phrase, start..<line.utf8.index(start, offsetBy: phrase.text.utf8CodeUnitCount))
      }
    }
    for phrase in Phrase.allCases {
      if let range = find(phrase.text, in: line[from...]) { return (phrase, range) }
    }
    return nil
  }

  /// Whether `text` starts with `prefix` (ASCII).
  private static func starts(_ text: Substring, with prefix: StaticString) -> Bool {
    let pattern = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
    var index = text.utf8.startIndex
    for byte in pattern {
      guard index < text.utf8.endIndex, text.utf8[index] == byte else { return false }
      index = text.utf8.index(after: index)
    }
    return true
  }

  /// The earliest place any of `needles` (ASCII) occurs in `text`, and which: one pass over the
  /// bytes, that only compares where a needle's first byte is.
  static func first(of needles: [StaticString], in text: Substring) -> (Int, Range<Substring.Index>)? {
    var firstBytes = (UInt64(0), UInt64(0))
    for needle in needles {
      let byte = needle.utf8Start.pointee
      if byte < 64 { firstBytes.0 |= 1 << byte } else if byte < 128 { firstBytes.1 |= 1 << (byte - 64) }
    }
    let utf8 = text.utf8
    let found: (Int, Int)?? = utf8.withContiguousStorageIfAvailable { bytes -> (Int, Int)? in
      let count = bytes.count
      var index = 0
      while index < count {
        let byte = bytes[index]
        let candidate =
          byte < 64 ? firstBytes.0 & (1 << byte) != 0 : byte < 128 && firstBytes.1 & (1 << (byte - 64)) != 0
        if candidate {
          for (which, needle) in needles.enumerated() where needle.utf8CodeUnitCount <= count - index {
            let pattern = needle.utf8Start
            var matched = true
            for offset in 0..<needle.utf8CodeUnitCount where bytes[index + offset] != pattern[offset] {
              matched = false
              break
            }
            if matched { return (which, index) }
          }
        }
        index += 1
      }
      return nil
    }
    if let found {
      guard let (which, offset) = found else { return nil }
      let lower = utf8.index(utf8.startIndex, offsetBy: offset)
      return (which, lower..<utf8.index(lower, offsetBy: needles[which].utf8CodeUnitCount))
    }
    // Not contiguous (a bridged string): each needle's own scan, the earliest kept.
    var best: (Int, Range<Substring.Index>)?
    for (which, needle) in needles.enumerated() {
      if let range = find(needle, in: text), best.map({ range.lowerBound < $0.1.lowerBound }) ?? true {
        best = (which, range)
      }
    }
    return best
  }

  /// The process an Apple console prefix names: `AnalyticsExample[51031:8040698]` (Xcode,
  /// `log stream --style compact`), `MyApp[342]` (syslog style) or `AnalyticsExample:` before
  /// `(FirebaseAnalytics)` (`log stream`'s default style).
  /// Read on the prefix's bytes (each entry line's, and iOS restates each event).
  static func iOSProcess(_ prefix: Substring) -> (name: String, id: String?)? {
    let (space, colon, open, close) = (
      UInt8(ascii: " "), UInt8(ascii: ":"), UInt8(ascii: "["), UInt8(ascii: "]")
    )
    let tokens = prefix.utf8.split(separator: space)
    for (index, whole) in tokens.enumerated() {
      let endsWithColon = whole.last == colon
      let token = endsWithColon ? whole.dropLast() : whole
      if token.last == close, let bracket = token.firstIndex(of: open), bracket > token.startIndex {
        let inside = token[token.index(after: bracket)..<token.index(before: token.endIndex)]
        let id = inside.split(separator: colon).first ?? inside[inside.endIndex...]
        if !id.isEmpty, id.allSatisfy({ (0x30...0x39).contains($0) }) {
          return (String(decoding: token[..<bracket], as: UTF8.self), String(decoding: id, as: UTF8.self))
        }
      }
      if endsWithColon, index + 1 < tokens.count, tokens[index + 1].first == UInt8(ascii: "("), !token.isEmpty
      {
        return (String(decoding: token, as: UTF8.self), nil)
      }
    }
    return nil
  }
}

/// A logcat prefix of Firebase's tags (`FA`, `FA-SVC`): brief `V/FA-SVC ( 2454): `, time
/// `03-03 09:39:28.947 V/FA-SVC  ( 2454): `, threadtime `03-03 09:39:28.947  2454  2470 V FA-SVC  : `,
/// or Android Studio's `2024-03-03 09:39:28.947  2454-2470  FA  com.example.app  V  `.
struct AndroidPrefix {
  var processID: String?
  var process: String?
  /// The text after the prefix, when the whole line was given.
  var message: Substring?

  init?(_ text: Substring) {
    if let slash = FirebaseLogLine.find("/FA", in: text), Self.isLevel(text, before: slash.lowerBound) {
      // brief and time: `V/FA-SVC  ( 2454): message`
      let afterTag = text[slash.upperBound...]
      guard
        afterTag.hasPrefix("-SVC") || afterTag.hasPrefix(" ") || afterTag.hasPrefix("(")
          || afterTag.hasPrefix(":")
      else { return nil }
      if let open = afterTag.firstIndex(of: "("),
        let close = FirebaseLogLine.find("):", in: afterTag[open...])
      {
        processID = afterTag[afterTag.index(after: open)..<close.lowerBound].trimmingCharacters(
          in: .whitespaces)
        message = Self.dropSpace(afterTag[close.upperBound...])
      } else if let colon = FirebaseLogLine.find(": ", in: afterTag) {
        message = afterTag[colon.upperBound...]
      }
      return
    }
    let tokens = text.split(separator: " ", omittingEmptySubsequences: true)
    guard let tag = tokens.firstIndex(where: { $0 == "FA" || $0 == "FA-SVC" }), tag >= 1 else { return nil }
    if Self.isLevelToken(tokens[tag - 1]) {
      // threadtime: `date time PID TID L TAG : message`
      if tag >= 3 { processID = String(tokens[tag - 3]) }
      if let colon = FirebaseLogLine.find(": ", in: text[tokens[tag].endIndex...]) {
        message = text[colon.upperBound...]
      }
      return
    }
    // Android Studio: `date time PID-TID TAG package L  message`
    guard tag + 2 < tokens.count, Self.isLevelToken(tokens[tag + 2]) else { return nil }
    let ids = tokens[tag - 1].split(separator: "-")
    if let first = ids.first, first.allSatisfy(\.isNumber) { processID = String(first) }
    process = String(tokens[tag + 1])
    message = Self.dropSpace(text[tokens[tag + 2].endIndex...])
  }

  private static func isLevelToken(_ token: Substring) -> Bool {
    token.count == 1 && "VDIWEFA".contains(token)
  }

  private static func isLevel(_ text: Substring, before index: Substring.Index) -> Bool {
    guard index > text.startIndex else { return false }
    let level = text.index(before: index)
    guard "VDIWEFA".contains(text[level]) else { return false }
    return level == text.startIndex || text[text.index(before: level)] == " "
  }

  private static func dropSpace(_ text: Substring) -> Substring {
    text.drop { $0 == " " }
  }
}
