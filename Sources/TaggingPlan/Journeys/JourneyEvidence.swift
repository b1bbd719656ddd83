import TagscopeRecording

/// Where a record is in a recording: its file and its line (1-based; the header is line 1).
public struct RecordLine: Sendable, Hashable {
  /// The recording's path (`-` for standard input).
  public var file: String
  /// The record's line.
  public var line: Int

  /// A place.
  public init(file: String, line: Int) {
    self.file = file
    self.line = line
  }
}

/// One record a journey finding names: the one that broke the rule, or the one it needed or
/// repeated.
public struct JourneyRecord: Sendable, Hashable {
  /// The record's sequence number.
  public var seq: UInt64
  /// The tag's name.
  public var name: String
  /// When it happened, in milliseconds since 1970.
  public var time: Int64
  /// The `listen` source (the device), if any.
  public var source: String?
  /// Its session id, if any.
  public var session: String?
  /// Its file and line in the recording, when it was read from one (not in a live session).
  public var place: RecordLine?

  /// A record reference.
  public init(
    seq: UInt64, name: String, time: Int64, source: String? = nil, session: String? = nil,
    place: RecordLine? = nil
  ) {
    self.seq = seq
    self.name = name
    self.time = time
    self.source = source
    self.session = session
    self.place = place
  }

  /// The reference of `record`, read at `place`: its seq, name, time, source and session id.
  package init(_ record: Record, at place: RecordLine?) {
    self.init(
      seq: record.seq, name: record.name, time: record.timeMilliseconds, source: record.source,
      session: record.context.session?.id, place: place)
  }

  /// `#4 checkout_started at 10:00:04.210Z`.
  public var label: String { "#\(seq) \(name) at \(Self.clock(time))" }

  /// `10:00:04.210Z`: the time of day, UTC, to the millisecond.
  static func clock(_ milliseconds: Int64) -> String {
    let day = Int64(86_400_000)
    let inDay = ((milliseconds % day) + day) % day
    let hours = inDay / 3_600_000
    let minutes = inDay / 60_000 % 60
    let seconds = inDay / 1_000 % 60
    let millis = inDay % 1_000
    func two(_ value: Int64) -> String { value < 10 ? "0\(value)" : "\(value)" }
    let three = millis < 10 ? "00\(millis)" : millis < 100 ? "0\(millis)" : "\(millis)"
    return "\(two(hours)):\(two(minutes)):\(two(seconds)).\(three)Z"
  }
}

/// What a journey finding compares: the plan's rule, the record that broke it and the record it
/// needed or repeated (`other`; `nil` when no such record exists on the device).
public struct JourneyEvidence: Sendable, Hashable {
  /// The plan's words: `after: [checkout_started]`, `once: session`, `duplicateWithin: 500ms`,
  /// `funnel checkout`.
  public var rule: String
  /// What the rule expects here.
  public var expected: String
  /// What happened instead.
  public var actual: String
  /// The record that broke the rule.
  public var record: JourneyRecord
  /// How `other` relates to it: `needed`, `first`, `duplicates`, `last step`.
  public var otherRole: String
  /// The record it needed, repeated or followed, if any.
  public var other: JourneyRecord?

  /// Evidence.
  public init(
    rule: String, expected: String, actual: String, record: JourneyRecord, otherRole: String,
    other: JourneyRecord?
  ) {
    self.rule = rule
    self.expected = expected
    self.actual = actual
    self.record = record
    self.otherRole = otherRole
    self.other = other
  }

  /// The comparison's rows: the rule, this record, and the other one.
  var rows: [ExpectationComparison.Row] {
    [
      ExpectationComparison.Row(field: rule, expected: expected, actual: actual, differs: true),
      ExpectationComparison.Row(field: "this record", expected: "—", actual: record.label, differs: false),
      ExpectationComparison.Row(
        field: otherRole, expected: "—", actual: other?.label ?? "none on this device", differs: other == nil),
    ]
  }
}
