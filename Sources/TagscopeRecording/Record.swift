import AnalyticsHub
import Foundation

/// One line of a recording after the header: a tag, the context it was sent in and what every
/// provider did with it. This is the unit the recorder writes, `tagscope listen` receives, the
/// timeline stores and the tagging plan validates.
///
/// The wire form (see `RecordLineEncoder` / `RecordLineDecoder`) uses exactly these field names:
/// `seq`, `time`, `kind`, `name`, `eventType`, `properties`, `context`, `outputs`, `issues`,
/// `source`, `raw`; any other field is kept in ``extra`` and written back.
public struct Record: Sendable, Hashable {
  /// Position in the producer's sequence, from 1 (`seq`).
  public var seq: UInt64
  /// When the hub received the tag, at millisecond precision (`time`).
  public var time: Date {
    get { Date(recordMilliseconds: timeMilliseconds) }
    set { timeMilliseconds = newValue.recordMilliseconds }
  }
  /// ``time`` as milliseconds since 1970 (UTC).
  public var timeMilliseconds: Int64
  /// What the tag is (`kind`).
  public var kind: RecordKind
  /// The tag's name (`name`).
  public var name: String
  /// The tag's properties, in the app's order (`properties`). Dates are ISO 8601 strings here.
  public var properties: Properties
  /// PayPal FPTI event type (`eventType`, its raw word `cl`, `im`…).
  public var eventType: EventType?
  /// The hub's context (`context`).
  public var context: RecordContext
  /// Each provider's outcome, in registration order (`outputs`).
  public var outputs: [ProviderOutput]
  /// Problems the hub reported (`issues`).
  public var issues: [RecordIssue]
  /// The device/connection a record came from, added by `tagscope listen` (`source`).
  public var source: String?
  /// The payload exactly as `tagscope listen` received it, for the detail view (`raw`); empty
  /// where the output's call (its method, name and parameters, the credentials beside it) holds
  /// it whole, which `raw` would only repeat.
  public var raw: String?
  /// Fields this version does not know, in the order read; written back after the known ones.
  public var extra: Properties

  /// A record; `time` is kept at millisecond precision.
  public init(
    seq: UInt64, time: Date, kind: RecordKind, name: String, properties: Properties = [:],
    eventType: EventType? = nil, context: RecordContext = RecordContext(), outputs: [ProviderOutput] = [],
    issues: [RecordIssue] = [], source: String? = nil, raw: String? = nil, extra: Properties = [:]
  ) {
    self.seq = seq
    self.timeMilliseconds = time.recordMilliseconds
    self.kind = kind
    self.name = name
    self.properties = properties
    self.eventType = eventType
    self.context = context
    self.outputs = outputs
    self.issues = issues
    self.source = source
    self.raw = raw
    self.extra = extra
  }

  /// The output of `provider`, if the record has one.
  public func output(for provider: String) -> ProviderOutput? {
    outputs.first { $0.provider == provider }
  }

  /// Whether `tagscope listen` made the record from an SDK's request (it keeps what the SDK sent
  /// as `raw`): its calls carry the SDK's whole message, not an in-app mapping's parameters.
  public var isFromSDK: Bool { raw != nil }

  /// Whether any provider output carries rule violations.
  public var hasViolations: Bool { outputs.contains { !$0.violations.isEmpty } }
}

extension Date {
  /// Milliseconds since 1970, rounded to the nearest (exact for dates made by
  /// ``init(recordMilliseconds:)``).
  package var recordMilliseconds: Int64 { ISO8601Timestamp.milliseconds(of: self) }

  /// The date `milliseconds` after 1970.
  package init(recordMilliseconds milliseconds: Int64) {
    self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
  }
}
