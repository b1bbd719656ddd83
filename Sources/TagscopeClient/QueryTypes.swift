import Foundation

/// A record as `listen` recorded it: the fields tests assert on, and the whole line as JSON.
public struct ReceivedRecord: Sendable, Hashable, Decodable {
  public var seq: Int
  /// ISO 8601, milliseconds.
  public var time: String
  /// `screen`, `userAction`, `event`…
  public var kind: String
  public var name: String
  /// The device or SDK connection it came from.
  public var source: String?
  /// The tag's properties.
  public var properties: [String: JSONValue]?
  /// The whole record (context, outputs…).
  public var json: JSONValue

  enum Keys: String, CodingKey { case seq, time, kind, name, source, properties }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: Keys.self)
    seq = try container.decode(Int.self, forKey: .seq)
    time = try container.decode(String.self, forKey: .time)
    kind = try container.decode(String.self, forKey: .kind)
    name = try container.decode(String.self, forKey: .name)
    source = try container.decodeIfPresent(String.self, forKey: .source)
    properties = try container.decodeIfPresent([String: JSONValue].self, forKey: .properties)
    json = try JSONValue(from: decoder)
  }
}

/// `GET /tagscope/v1/summary`: what the current segment holds.
public struct QuerySummary: Sendable, Hashable, Decodable {
  public var segment: Int
  public var started: String
  public var records: Int
  public var withViolations: Int
  public var byKind: [String: Int]
  public var bySource: [String: Int]
  public var byProvider: [String: Int]
  /// Plan coverage by state; `nil` without a plan.
  public var coverage: CoverageCounts?
  /// The recording file the session writes, `nil` when it is not recorded.
  public var recording: String?
}

/// Coverage items by state.
public struct CoverageCounts: Sendable, Hashable, Decodable {
  public var plan: String?
  public var planned: Int
  public var passed: Int
  public var failing: Int
  public var blocked: Int
  public var notSeen: Int
}

/// `GET /tagscope/v1/records`: a page, and where the next one starts.
public struct RecordPage: Sendable, Hashable, Decodable {
  public var segment: Int
  public var records: [ReceivedRecord]
  /// The `since` of the next page.
  public var next: Int
  /// Whether more matching records may follow now.
  public var more: Bool
}

/// One tagging-plan violation, as in `tagscope validate --format json`.
public struct PlanViolationReport: Sendable, Hashable, Decodable {
  public var seq: Int
  public var severity: String
  public var rule: String
  public var tag: String
  public var provider: String?
  public var message: String
  public var source: String?
  public var planFile: String?
  public var planLine: Int?
  /// What the plan expected and what the record carried.
  public var expected: JSONValue?
  public var actual: JSONValue?
}

/// One planned item and its state (`passed`: every record passed it; `failing`: any record broke
/// it; `blocked`, `not-seen`).
public struct CoverageItemReport: Sendable, Hashable, Decodable {
  public var id: String
  public var state: String
  public var records: Int
  /// How many of ``records`` broke it.
  public var failures: Int
  /// The state as the reports word it: `failing · 3 of 5 broke it (wrong-name)`.
  public var label: String
  public var rules: [String]
  public var reasons: [String]
  public var planLine: Int
}

/// `GET /tagscope/v1/coverage`.
public struct CoverageReport: Sendable, Hashable, Decodable {
  public var planned: Int
  public var seen: Int
  public var passed: Int
  public var failing: Int
  public var blocked: Int
  public var notSeen: Int
  public var missing: [String]
  public var items: [CoverageItemReport]
}

/// A segment: what the API counts from (`POST /tagscope/v1/reset` starts a new one).
public struct Segment: Sendable, Hashable, Decodable {
  public var segment: Int
  public var started: String
}

/// A ``TagscopeClient/wait(for:count:timeout:scope:)`` whose timeout passed first: what it waited for
/// and what did arrive.
public struct WaitTimeout: Sendable, Hashable, CustomStringConvertible {
  /// The filter waited for.
  public var filter: String
  /// How many matching records were wanted.
  public var count: Int
  /// The timeout, in seconds.
  public var seconds: Double
  /// The matching records that did arrive.
  public var received: [ReceivedRecord]
  /// What the segment held when the wait ended (every record, matching or not); `nil` when
  /// `listen` could not say.
  public var arrived: QuerySummary?

  public var description: String {
    var text =
      "wait for \"\(filter)\" timed out after \(Self.format(seconds)) s with \(received.count) of \(count) matching record(s)"
    if !received.isEmpty {
      text += " (" + received.prefix(5).map { "#\($0.seq) \($0.name)" }.joined(separator: ", ") + ")"
    }
    guard let arrived else { return text }
    text += "; the segment holds \(arrived.records) record(s)"
    let kinds = arrived.byKind.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }
    if !kinds.isEmpty { text += " (" + kinds.joined(separator: ", ") + ")" }
    let sources = arrived.bySource.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }
    if !sources.isEmpty { text += " from " + sources.joined(separator: ", ") }
    return text + "; records(filter:) lists them"
  }

  private static func format(_ seconds: Double) -> String {
    seconds.rounded() == seconds ? String(Int(seconds)) : String(seconds)
  }
}

/// Why a query failed.
public enum TagscopeClientError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The wait's timeout passed first: what it waited for, the matching records that did arrive
  /// and what the segment held.
  case timedOut(WaitTimeout)
  /// `listen` refused the request (400 bad parameter, 401 token, 404 no plan…) with its message.
  case refused(status: Int, message: String)
  /// The answer was not what the API sends.
  case invalidResponse(String)
  /// ``TagscopeClient/scope(_:source:_:)``'s scope ended with violations: the verdict lists them.
  case scopeFailed(ScopeVerdict)
  /// ``TagscopeClient/expect(_:scope:)`` found a check failing: the report says which.
  case checkFailed(ScopeCheckReport)

  public var description: String {
    switch self {
    case .timedOut(let timeout): return timeout.description
    case .refused(let status, let message): return "tagscope listen answered \(status): \(message)"
    case .invalidResponse(let reason): return "unexpected answer from tagscope listen: \(reason)"
    case .scopeFailed(let verdict): return verdict.description
    case .checkFailed(let report): return report.description
    }
  }
}
