import Foundation
import TagscopeRecording

/// The cheap fields of one record, straight from the timeline's index (no file access): what the
/// Events list shows.
public struct RecordSummary: Sendable, Hashable {
  /// Position in the timeline, from 0.
  public var index: Int
  /// The producer's sequence number.
  public var seq: UInt64
  /// Milliseconds since 1970.
  public var timeMilliseconds: Int64
  /// What the tag is.
  public var kind: RecordKind
  /// The tag's name.
  public var name: String
  /// The `source` added by `tagscope listen`.
  public var source: String?
  /// Each provider's status, in the order providers were first seen (the first 64 providers). A
  /// status word other than the four known ones shows as `other` here (the record keeps the word).
  public var outputs: [OutputSummary]
  /// Whether a provider output carries rule violations.
  public var hasRuleViolations: Bool
  /// Whether the hub reported issues.
  public var hasIssues: Bool
  /// Violations attached by a tagging-plan validator (``Timeline/setPlanViolations(_:at:)``).
  public var planViolations: Int

  /// When the hub received the tag.
  public var time: Date { Date(recordMilliseconds: timeMilliseconds) }

  /// Rule or plan violations.
  public var hasViolations: Bool { hasRuleViolations || planViolations > 0 }
}

/// One provider's status in a ``RecordSummary``.
public struct OutputSummary: Sendable, Hashable {
  /// Provider identifier.
  public var provider: String
  /// Its status for this record.
  public var status: OutputStatus
}
