import AnalyticsHub
import Foundation

extension Record {
  /// The record of a hub dispatch. Dates inside properties become ISO 8601 strings and numbers
  /// JSON cannot represent (NaN, infinity) become `null` (the hub reports those as an issue).
  public init(dispatch: Dispatch) {
    let milliseconds = ISO8601Timestamp.milliseconds(
      seconds: dispatch.time.timeIntervalSince1970, rounding: .down)
    self.init(
      seq: dispatch.seq, time: Date(recordMilliseconds: milliseconds), kind: RecordKind(dispatch.kind),
      name: dispatch.name, properties: Self.wire(dispatch.properties), eventType: dispatch.eventType,
      context: RecordContext(dispatch.context), outputs: dispatch.outcomes.map(ProviderOutput.init),
      issues: dispatch.issues.isEmpty ? [] : dispatch.issues.map(RecordIssue.init))
  }

  /// `properties` as they read back from the wire: dates as strings, non-finite numbers as null.
  package static func wire(_ properties: Properties) -> Properties {
    var needsRewrite = false
    for (_, value) in properties where !isWireForm(value) {
      needsRewrite = true
      break
    }
    guard needsRewrite else { return properties }
    var out = Properties()
    for (key, value) in properties { out.appendUnchecked(key, wire(value)) }
    return out
  }

  package static func wire(_ value: PropertyValue) -> PropertyValue {
    switch value {
    case .date(let date): return .string(ISO8601Timestamp.string(from: date))
    case .double(let number): return number.isFinite ? value : .null
    case .array(let values): return .array(values.map(wire))
    case .object(let properties): return .object(wire(properties))
    default: return value
    }
  }

  /// Whether every value is already as it reads back from the wire.
  package static func isWireForm(_ properties: Properties) -> Bool {
    for (_, value) in properties where !isWireForm(value) { return false }
    return true
  }

  private static func isWireForm(_ value: PropertyValue) -> Bool {
    switch value {
    case .date: return false
    case .double(let number): return number.isFinite
    case .array(let values): return values.allSatisfy(isWireForm)
    case .object(let properties): return properties.allSatisfy { isWireForm($0.value) }
    default: return true
    }
  }
}

extension RecordContext {
  /// The record of a hub context snapshot.
  public init(_ snapshot: ContextSnapshot) {
    self.init(
      screen: snapshot.screen, history: snapshot.history, session: snapshot.session.map(RecordSession.init),
      timedEvents: snapshot.timedEvents)
  }
}

extension RecordSession {
  /// The record of a hub session.
  public init(_ session: Session) {
    self.init(
      id: session.id, state: session.state.rawValue, user: session.user?.id,
      properties: Record.wire(session.properties))
  }
}

extension ProviderOutput {
  /// The record of a provider outcome.
  public init(_ outcome: ProviderOutcome) {
    let reason: String?
    switch outcome.status {
    case .blocked(let why): reason = why.rawValue
    case .failed(let message): reason = message
    case .sent, .dropped: reason = nil
    }
    self.init(
      provider: outcome.provider.rawValue, status: OutputStatus(outcome.status), reason: reason,
      calls: outcome.calls.allSatisfy { Record.isWireForm($0.parameters) }
        ? outcome.calls
        : outcome.calls.map {
          CallDescription(method: $0.method, name: $0.name, parameters: Record.wire($0.parameters))
        },
      violations: outcome.violations.isEmpty ? [] : outcome.violations.map(RecordViolation.init))
  }
}
