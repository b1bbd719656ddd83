import AnalyticsHub
import TagscopeRecording
import TagscopeTimeline

extension RecordView {
  /// The view of an inspector record (from a recording, `listen`, or the live inspector).
  public init(_ record: Record) {
    let session = record.context.session.map {
      SessionView(id: $0.id, state: $0.state, user: $0.user, properties: $0.properties)
    }
    self.init(
      seq: record.seq, time: Double(record.timeMilliseconds) / 1000, kind: record.kind.rawValue,
      name: record.name, properties: record.properties, eventType: record.eventType?.rawValue,
      context: ContextView(
        screen: record.context.screen, history: record.context.history, session: session,
        timedEvents: record.context.timedEvents),
      outputs: record.outputs.map { output in
        OutputView(
          provider: output.provider, status: output.status.rawValue, reason: output.reason,
          calls: output.calls,
          violations: output.violations.map {
            ViolationView(
              rule: $0.rule, message: $0.message, severity: $0.consequence, callIndex: $0.callIndex)
          })
      },
      issues: record.issues.map(\.message), source: record.source, raw: record.raw, extra: record.extra)
  }
}
