import AnalyticsHub

/// A record's `kind`: one of the hub's ``TagKind`` words (`screen`, `userAction`, …) or, for
/// recordings written by a newer or foreign producer, any other word, kept as written.
public struct RecordKind: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The word as it appears in the recording.
  public var rawValue: String

  /// A kind from its word; unknown words are kept.
  public init(rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { rawValue = value }

  /// The kind of a hub tag.
  public init(_ kind: TagKind) { rawValue = kind.rawValue }

  public var description: String { rawValue }

  /// The hub's kind, or `nil` for a word the hub does not know.
  public var tagKind: TagKind? { TagKind(rawValue: rawValue) }

  /// Whether the word is one of the hub's kinds.
  public var isKnown: Bool { tagKind != nil }

  /// The hub's kinds, one constant each (`screen` … `consent`).
  public static let screen = RecordKind(.screen)
  public static let userAction = RecordKind(.userAction)
  public static let event = RecordKind(.event)
  public static let state = RecordKind(.state)
  public static let timedStart = RecordKind(.timedStart)
  public static let timedStop = RecordKind(.timedStop)
  public static let sessionStart = RecordKind(.sessionStart)
  public static let sessionUpdate = RecordKind(.sessionUpdate)
  public static let sessionEnd = RecordKind(.sessionEnd)
  public static let identify = RecordKind(.identify)
  public static let reset = RecordKind(.reset)
  public static let consent = RecordKind(.consent)
}
