import AnalyticsHub

/// A provider output's `status`: `sent`, `dropped`, `blocked` or `failed`, or any other word a
/// newer or foreign producer wrote, kept as written.
public struct OutputStatus: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  /// The word as it appears in the recording.
  public var rawValue: String

  /// A status from its word; unknown words are kept.
  public init(rawValue: String) { self.rawValue = rawValue }

  public init(stringLiteral value: String) { rawValue = value }

  /// The status word of a hub outcome (the reason goes to ``ProviderOutput/reason``).
  public init(_ status: OutcomeStatus) {
    switch status {
    case .sent: self = .sent
    case .dropped: self = .dropped
    case .blocked: self = .blocked
    case .failed: self = .failed
    }
  }

  public var description: String { rawValue }

  /// The mapping returned calls and the adapter took them.
  public static let sent: OutputStatus = "sent"
  /// The mapping returned nothing.
  public static let dropped: OutputStatus = "dropped"
  /// Disabled or without consent (see ``ProviderOutput/reason``).
  public static let blocked: OutputStatus = "blocked"
  /// The adapter threw (see ``ProviderOutput/reason``).
  public static let failed: OutputStatus = "failed"

  /// Whether the word is one of the four above.
  public var isKnown: Bool { self == .sent || self == .dropped || self == .blocked || self == .failed }
}
