import AnalyticsHub
import Foundation
import TagscopeRecording

/// An in-memory, thread-safe, append-only ``TimelineSource``: records are appended from any thread
/// (the hub's observer, a reader) while the UI reads them.
public final class RecordStore: TimelineSource, @unchecked Sendable {
  private let lock = NSLock()
  private var records: [RecordView] = []
  /// Consent in force after each consent record: (index, decisions).
  private var consentKeyframes: [(index: Int, consent: [ConsentView])] = []
  private var listener: (@Sendable () -> Void)?
  private var plan: String?
  private var planItems: [String] = []
  private var droppedRecords = 0

  public let appName: String
  public let sourceLabel: String

  /// An empty store.
  public init(appName: String, sourceLabel: String, records: [RecordView] = []) {
    self.appName = appName
    self.sourceLabel = sourceLabel
    append(contentsOf: records)
  }

  /// Calls `body` (from the appending thread) after each append; the event loop uses it to wake up.
  public func setListener(_ body: (@Sendable () -> Void)?) {
    lock.lock()
    listener = body
    lock.unlock()
  }

  /// Sets the plan coverage line shown in the header and, optionally, the checklist (`c`).
  public func setPlanSummary(_ text: String?, checklist: [String] = []) {
    lock.lock()
    plan = text
    planItems = checklist
    lock.unlock()
  }

  public func planChecklist() -> [String] {
    lock.lock()
    defer { lock.unlock() }
    return planItems
  }

  /// Counts records lost upstream (an inspector's backlog overflowed, a recording's drop marker).
  public func noteDropped(_ count: Int) {
    lock.lock()
    droppedRecords += count
    lock.unlock()
  }

  /// Records lost upstream, shown in the header.
  public var dropped: Int {
    lock.lock()
    defer { lock.unlock() }
    return droppedRecords
  }

  /// Appends one record.
  public func append(_ record: RecordView) {
    append(contentsOf: CollectionOfOne(record))
  }

  /// Appends records in order.
  public func append<S: Sequence>(contentsOf newRecords: S) where S.Element == RecordView {
    lock.lock()
    for record in newRecords {
      if record.kind == TagKind.consent.rawValue, let scope = record.properties["scope"]?.stringValue,
        let granted = record.properties["granted"]?.boolValue
      {
        var consent = consentKeyframes.last?.consent ?? []
        consent.removeAll { $0.scope == scope }
        consent.append(ConsentView(scope: scope, granted: granted))
        consentKeyframes.append((records.count, consent))
      }
      records.append(record)
    }
    let notify = listener
    lock.unlock()
    notify?()
  }

  public var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return records.count
  }

  public var planSummary: String? {
    lock.lock()
    defer { lock.unlock() }
    return plan
  }

  public func summary(at index: Int) -> EventSummary { record(at: index).summary }

  public var sources: [String] {
    lock.lock()
    defer { lock.unlock() }
    var seen: [String] = []
    for record in records { if let source = record.source, !seen.contains(source) { seen.append(source) } }
    return seen
  }

  public func time(at index: Int) -> Double {
    lock.lock()
    defer { lock.unlock() }
    return records[index].time
  }

  public func record(at index: Int) -> RecordView {
    lock.lock()
    defer { lock.unlock() }
    return records[index]
  }

  public func state(at index: Int) -> StateView {
    lock.lock()
    defer { lock.unlock() }
    var low = 0
    var high = consentKeyframes.count
    while low < high {
      let mid = (low + high) / 2
      if consentKeyframes[mid].index <= index { low = mid + 1 } else { high = mid }
    }
    return StateView(
      context: records[index].context, consent: low > 0 ? consentKeyframes[low - 1].consent : [])
  }
}

extension RecordView {
  /// The record of a hub dispatch.
  public init(_ dispatch: Dispatch) {
    let session = dispatch.context.session.map {
      SessionView(id: $0.id, state: $0.state.rawValue, user: $0.user?.id, properties: $0.properties)
    }
    self.init(
      seq: dispatch.seq, time: dispatch.time.timeIntervalSince1970, kind: dispatch.kind.rawValue,
      name: dispatch.name, properties: dispatch.properties, eventType: dispatch.eventType.rawValue,
      context: ContextView(
        screen: dispatch.context.screen, history: dispatch.context.history, session: session,
        timedEvents: dispatch.context.timedEvents),
      outputs: dispatch.outcomes.map(OutputView.init),
      issues: dispatch.issues.map(\.message))
  }
}

extension OutputView {
  /// The output of a provider outcome.
  public init(_ outcome: ProviderOutcome) {
    var reason: String?
    switch outcome.status {
    case .blocked(let why): reason = why.rawValue
    case .failed(let message): reason = message
    case .sent, .dropped: reason = nil
    }
    self.init(
      provider: outcome.provider.rawValue, status: OutputStatus(outcome.status).rawValue, reason: reason,
      calls: outcome.calls,
      violations: outcome.violations.map {
        ViolationView(
          rule: $0.rule, message: $0.message, severity: $0.consequence.rawValue, callIndex: $0.callIndex)
      })
  }
}
