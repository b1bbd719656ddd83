/// Reads Firebase Analytics' debug log line by line, as it is written, into typed entries: each
/// event the SDK logs (`Logging event …`), each user property it sets or removes.
///
/// Feed lines in order with ``feed(_:)``; an entry whose parameters span lines is returned once
/// its block closes. A block still open when the next entry starts, one that never closes within
/// ``lineLimit`` lines or ``byteLimit`` bytes, or one that cannot be read is reported as a
/// ``FirebaseLogProblem`` (its first line and what is wrong) and skipped; the lines after it are
/// read as usual. Call ``finish()`` at the end of the input for an entry left open.
///
/// iOS prints each event up to three times (`I-ACS023051 Logging event`, `I-ACS023073 Debug mode
/// is enabled. Marking event…`, `I-ACS023072 Event logged`) and each user property twice
/// (`I-ACS023080 Setting user property`, `I-ACS023087 User property set`): each call is one entry,
/// read from whichever of its lines comes first, so a paste of confirmation lines alone is read too
/// (``FirebaseLogRestatements``). Android's service restates the app's `(FE)` lines the same way
/// (`Logging event: origin=…`, `Setting user property: …`, `Event recorded: Event{…}`). The SDK's other lines are skipped, multi-line ones included; one
/// that looks like a Firebase Analytics line (`[I-ACS…]`, `<FIRAnalytics/…>`, logcat `FA`,
/// `FA-SVC`) and is not known to carry nothing is a problem with its wording, to be counted
/// (``FirebaseLogUnreadLines``).
public struct FirebaseLogParser: Sendable {
  /// The most lines an entry may span.
  public static let lineLimit = 2_000
  /// The most bytes an entry may hold.
  public static let byteLimit = 1 << 20

  private struct Open {
    var phrase: FirebaseLogLine.Phrase?
    var text: String
    var depth: Int
    var inQuote = false
    var escaped = false
    var lines = 1
    var origin: FirebaseLogOrigin
    /// The message's id or words (``FirebaseLogLine/wording(_:phrase:)``).
    var wording = ""
    /// A restatement's words before its phrase.
    var lead = ""
  }

  /// Lines fed so far.
  public private(set) var lineNumber = 0
  private var open: Open?
  /// The last one-line entry's text, to skip its Apple System Log echo on the next line.
  private var lastLine: (text: String, number: Int)?
  /// The recent iOS calls, to skip the lines restating them.
  private var restatements = FirebaseLogRestatements()

  /// A parser at the first line.
  public init() {}

  /// A parser after `lines` lines already read elsewhere (a log read again from where it was
  /// left): the next line fed is line `lines + 1`.
  public init(after lines: Int) {
    lineNumber = max(0, lines)
  }

  /// A parser after `lines` lines already read elsewhere whose last complete lines are `tail`:
  /// reading them again (their entries dropped) lets it know the calls they logged, so a line
  /// after them restating one of those calls is not taken for a new call.
  public init(after lines: Int, tail: [Substring]) {
    lineNumber = max(0, lines - tail.count)
    for line in tail { _ = feed(line) }
    open = nil
    lineNumber = max(0, lines)
  }

  /// Reads the next line (without its line break); returns the entries and problems it completes.
  public mutating func feed(_ line: Substring) -> [FirebaseLogItem] {
    lineNumber += 1
    var line = line
    if line.hasSuffix("\r") { line = line.dropLast() }
    var items: [FirebaseLogItem] = []
    let kind = FirebaseLogLine.classify(line)
    if var current = open {
      switch kind {
      case .text:
        append(line, to: &current, items: &items)
        return items
      case .other(let message, android: true, _) where current.origin.platform == .android:
        append(message, to: &current, items: &items)
        return items
      default:
        if let phrase = current.phrase {
          items.append(
            .problem(
              FirebaseLogProblem(
                line: current.origin.line,
                message: "\(Self.what(phrase)) is not closed before the next entry on line \(lineNumber)")))
        }
        open = nil
      }
    }
    start(kind, items: &items)
    return items
  }

  /// Reads the next line.
  public mutating func feed(_ line: String) -> [FirebaseLogItem] { feed(line[...]) }

  /// Counts the next line as one not read, `bytes` long, more than a line may hold (the reader
  /// dropped it rather than keep it): it is reported, and so is an entry it cuts.
  public mutating func skip(overlong bytes: Int, limit: Int) -> [FirebaseLogItem] {
    lineNumber += 1
    var items: [FirebaseLogItem] = []
    if let current = open, let phrase = current.phrase {
      items.append(
        .problem(
          FirebaseLogProblem(
            line: current.origin.line,
            message: "\(Self.what(phrase)) is cut by line \(lineNumber), too long to read; skipped")))
    }
    open = nil
    items.append(
      .problem(
        FirebaseLogProblem(
          line: lineNumber,
          message: "the line holds \(bytes) bytes, more than the \(limit) a line may; skipped")))
    return items
  }

  /// Ends the input: an entry still open is reported.
  public mutating func finish() -> [FirebaseLogItem] {
    defer { open = nil }
    guard let current = open, let phrase = current.phrase else { return [] }
    return [
      .problem(
        FirebaseLogProblem(
          line: current.origin.line, message: "\(Self.what(phrase)) is not closed at the end of the log"))
    ]
  }

  private mutating func start(_ kind: FirebaseLogLine.Kind, items: inout [FirebaseLogItem]) {
    switch kind {
    case .text:
      return
    case .other(let message, let android, let id):
      if let wording = FirebaseLogLine.unreadWording(message, android: android, id: id) {
        let shown = FirebaseLogValueReader.trimSpaces(message.prefix(100))
        items.append(
          .problem(
            FirebaseLogProblem(
              line: lineNumber, message: "a Firebase Analytics line not understood (\(wording)): \(shown)",
              wording: wording)))
      }
      // Another SDK line: skip its block (iOS prints events again, multi-line).
      guard !android else { return }
      var skipped = Open(
        phrase: nil, text: "", depth: 0, origin: FirebaseLogOrigin(platform: .iOS, line: lineNumber))
      Self.count(message, in: &skipped)
      if skipped.depth > 0 { open = skipped }
    case .entry(let phrase, let body, let process, let processID, let echo, let time, let wording, let lead):
      let origin = FirebaseLogOrigin(
        platform: phrase.platform, process: process, processID: processID, line: lineNumber, time: time)
      var entry = Open(
        phrase: phrase, text: String(body), depth: 0, origin: origin, wording: wording, lead: String(lead))
      if phrase.isEvent { Self.count(body, in: &entry) }
      if entry.depth > 0 {
        open = entry
      } else {
        let text = "\(phrase.text)" + body
        if echo, let last = lastLine, last.number == lineNumber - 1, last.text == text { return }
        lastLine = (text, lineNumber)
        emit(entry, items: &items)
      }
    }
  }

  private mutating func append(_ line: Substring, to current: inout Open, items: inout [FirebaseLogItem]) {
    current.lines += 1
    if current.phrase != nil {
      current.text += "\n"
      current.text += line
    }
    Self.count(line, in: &current)
    if current.depth <= 0 {
      open = nil
      if current.phrase != nil { emit(current, items: &items) }
    } else if current.lines > Self.lineLimit || current.text.utf8.count > Self.byteLimit {
      open = nil
      if let phrase = current.phrase {
        items.append(
          .problem(
            FirebaseLogProblem(
              line: current.origin.line,
              message:
                "\(Self.what(phrase)) is not closed within \(Self.lineLimit) lines or \(Self.byteLimit) bytes; skipped"
            )))
      }
    } else {
      open = current
    }
  }

  /// Counts the brackets `text` opens and closes, outside iOS's quoted strings.
  private static func count(_ text: Substring, in entry: inout Open) {
    let quotes = entry.origin.platform == .iOS
    for byte in text.utf8 {
      if entry.inQuote {
        if entry.escaped {
          entry.escaped = false
        } else if byte == UInt8(ascii: "\\") {
          entry.escaped = true
        } else if byte == UInt8(ascii: "\"") {
          entry.inQuote = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("): entry.depth += 1
      case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"): entry.depth -= 1
      case UInt8(ascii: "\"") where quotes: entry.inQuote = true
      default: break
      }
    }
  }

  private static func what(_ phrase: FirebaseLogLine.Phrase) -> String {
    phrase.isEvent ? "the parameters of a logged event" : "a user property line"
  }

  // MARK: Entries

  /// Reads `entry` into `items`, unless it restates a call already read.
  private mutating func emit(_ entry: Open, items: inout [FirebaseLogItem]) {
    let item = Self.interpret(entry)
    if case .entry(let read) = item, let phrase = entry.phrase,
      restatements.isRestatement(read, restating: phrase.isRestatement, wording: entry.wording)
    {
      return
    }
    items.append(item)
  }

  private static func interpret(_ entry: Open) -> FirebaseLogItem {
    guard let phrase = entry.phrase else {
      return .problem(FirebaseLogProblem(line: entry.origin.line, message: "not an entry"))
    }
    do {
      return .entry(
        try FirebaseLogEntryReader.entry(
          phrase, text: entry.text[...], origin: entry.origin, lead: entry.lead))
    } catch {
      return .problem(FirebaseLogProblem(line: entry.origin.line, message: error.message))
    }
  }
}
