import AnalyticsHub
import Foundation
import TagscopeFuzzing
import TagscopeRecording

/// Random records in wire form (no dates, finite numbers), exercising escapes, non-ASCII text,
/// big and negative numbers, nesting and unknown fields.
struct RecordGenerator {
  var random: SeededGenerator

  init(seed: UInt64) { random = SeededGenerator(seed: seed) }

  static let alphabet: [String] = [
    "a", "b", "Z", " ", "\"", "\\", "/", "\n", "\t", "\r", "\u{0}", "\u{1F}", "\u{7F}", "é", "ß", "漢",
    "\u{1F600}",
    "\u{2028}", "\u{FEFF}", "\u{202E}", "{", "}", "[", "]", ":", ",",
  ]

  mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }

  mutating func bool() -> Bool { Bool.random(using: &random) }

  mutating func text(maxLength: Int = 12) -> String {
    var out = ""
    for _ in 0..<int(0...maxLength) { out += Self.alphabet.randomElement(using: &random)! }
    return out
  }

  mutating func word() -> String {
    ["screen", "play_podcast", "firebase", "x", "ünï", "a b", "k\"q"].randomElement(using: &random)!
  }

  mutating func number() -> PropertyValue {
    switch int(0...6) {
    case 0: return .int(int(-1000...1000))
    case 1: return .int(Int.random(in: Int.min...Int.max, using: &random))
    case 2: return .double(Double.random(in: -1e6...1e6, using: &random))
    case 3:
      return .double(
        [0.1, -0.0, 1e-7, 1e300, .leastNonzeroMagnitude, 2.0, 123_456_789.125].randomElement(using: &random)!)
    case 4: return .double(Double(bitPattern: random.next() & 0x7FEF_FFFF_FFFF_FFFF))
    case 5: return .int(Int.max)
    default: return .int(Int.min)
    }
  }

  mutating func value(depth: Int = 0) -> PropertyValue {
    switch int(0...(depth > 3 ? 4 : 6)) {
    case 0: return .string(text())
    case 1: return number()
    case 2: return .bool(bool())
    case 3: return .null
    case 4: return .string(word())
    case 5: return .array((0..<int(0...4)).map { _ in value(depth: depth + 1) })
    default: return .object(properties(depth: depth + 1))
    }
  }

  mutating func properties(depth: Int = 0, max: Int = 5) -> Properties {
    var out = Properties()
    for _ in 0..<int(0...max) { out[text(maxLength: 6)] = value(depth: depth) }
    return out
  }

  mutating func optional<T>(_ make: (inout RecordGenerator) -> T) -> T? {
    bool() ? make(&self) : nil
  }

  mutating func record(seq: UInt64) -> Record {
    let kinds: [RecordKind] = [.screen, .userAction, .event, .state, .timedStop, .consent, "hologram"]
    var record = Record(
      seq: seq, time: Date(timeIntervalSince1970: Double(int(0...4_000_000_000_000)) / 1000),
      kind: kinds.randomElement(using: &random)!, name: text(), properties: properties(),
      eventType: bool() ? EventType.allCases.randomElement(using: &random) : nil)
    record.context = RecordContext(
      screen: optional { $0.word() }, history: (0..<int(0...5)).map { _ in text(maxLength: 8) },
      session: optional {
        RecordSession(
          id: $0.text(), state: $0.bool() ? "authenticated" : "unauthenticated",
          user: $0.optional { $0.text() },
          properties: $0.properties(max: 3))
      },
      timedEvents: (0..<int(0...2)).map { _ in word() })
    let statuses: [OutputStatus] = [.sent, .dropped, .blocked, .failed, "queued"]
    record.outputs = (0..<int(0...4)).map { _ in
      ProviderOutput(
        provider: word(), status: statuses.randomElement(using: &random)!, reason: optional { $0.text() },
        calls: (0..<int(0...2)).map { _ in
          CallDescription(method: word(), name: optional { $0.text() }, parameters: properties(max: 4))
        },
        violations: (0..<int(0...1)).map { _ in
          RecordViolation(
            rule: word(), message: text(), consequence: "dropped", callIndex: optional { $0.int(0...3) },
            errorCode: optional { $0.int(-5...50) })
        })
    }
    record.issues = (0..<int(0...1)).map { _ in RecordIssue(code: word(), message: text()) }
    record.source = optional { $0.text() }
    record.raw = optional { $0.text(maxLength: 30) }
    if bool() { record.extra = ["zFuture": value(), "alsoNew": .string(text())] }
    return record
  }
}
