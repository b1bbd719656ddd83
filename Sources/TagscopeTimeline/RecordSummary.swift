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
  /// Each provider's status, in the order providers were first seen (the first 32 providers). A
  /// status word other than the four known ones shows as `other` here (the record keeps the word).
  public var outputs: [OutputSummary]
  /// Whether a provider output carries rule violations.
  public var hasRuleViolations: Bool
  /// How many rule violations the outputs carry (the hub's findings; 7 means 7 or more); at least
  /// 1 when ``hasRuleViolations``.
  public var ruleViolations = 0
  /// Whether the hub reported issues.
  public var hasIssues: Bool
  /// Violations attached by a tagging-plan validator (``Timeline/setPlanViolations(_:at:)``).
  public var planViolations: Int

  /// A summary (the timeline makes them from its index; tests and other sources may too).
  public init(
    index: Int, seq: UInt64, timeMilliseconds: Int64, kind: RecordKind, name: String, source: String?,
    outputs: [OutputSummary], hasRuleViolations: Bool, hasIssues: Bool, planViolations: Int
  ) {
    self.index = index
    self.seq = seq
    self.timeMilliseconds = timeMilliseconds
    self.kind = kind
    self.name = name
    self.source = source
    self.outputs = outputs
    self.hasRuleViolations = hasRuleViolations
    self.hasIssues = hasIssues
    self.planViolations = planViolations
  }

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

  /// A provider's status.
  public init(provider: String, status: OutputStatus) {
    self.provider = provider
    self.status = status
  }
}
