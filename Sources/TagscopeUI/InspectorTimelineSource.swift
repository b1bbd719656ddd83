import AnalyticsHub
import TagscopeRecording
import TagscopeTimeline

/// The inspector's ``Timeline`` (file-backed, indexed, keyframed) as the UI's ``TimelineSource``:
/// replay of a recording and the live demo both read through it.
///
/// Summaries and state come from the timeline's index and keyframes; full records are read back
/// from the file and adapted to ``RecordView``. A record that cannot be read any more (the file
/// changed underneath) shows as an `error` record naming the problem instead of stopping the UI.
public final class InspectorTimelineSource: TimelineSource {
  /// The timeline read.
  public let timeline: Timeline
  public let appName: String
  public let sourceLabel: String
  /// Tagging-plan results, when a plan is checked.
  public let plan: (any PlanFeed)?

  /// An adapter over `timeline`, labelled `source` in the header, with `plan` results if any.
  public init(timeline: Timeline, sourceLabel: String, plan: (any PlanFeed)? = nil) {
    self.timeline = timeline
    appName = timeline.header.app ?? "recording"
    self.sourceLabel = sourceLabel
    self.plan = plan
  }

  public var planSummary: String? { plan?.headerText }

  public var count: Int { timeline.count }

  public var isLoading: Bool { timeline.isIndexing }

  public var sources: [String] { timeline.sources }

  public func planChecklist() -> [String] { plan?.checklist() ?? [] }

  public var dropped: Int { timeline.gaps.reduce(0) { $0 + $1.marker.count } }

  public func summary(at index: Int) -> EventSummary {
    do {
      let summary = try timeline.summary(at: index)
      return EventSummary(
        seq: summary.seq, time: Double(summary.timeMilliseconds) / 1000, kind: summary.kind.rawValue,
        name: summary.name,
        outputs: summary.outputs.map { EventOutput(provider: $0.provider, status: $0.status.rawValue) },
        violations: summary.planViolations + (summary.hasRuleViolations ? 1 : 0),
        issues: summary.hasIssues ? 1 : 0, source: summary.source)
    } catch {
      return EventSummary(seq: 0, time: 0, kind: "error", name: error.description)
    }
  }

  public func time(at index: Int) -> Double {
    (try? timeline.summary(at: index)).map { Double($0.timeMilliseconds) / 1000 } ?? 0
  }

  public func record(at index: Int) -> RecordView {
    var view: RecordView
    do {
      view = RecordView(try timeline.record(at: index))
    } catch {
      return RecordView(seq: 0, time: time(at: index), kind: "error", name: error.description)
    }
    for finding in plan?.findings(at: index) ?? [] {
      if let provider = finding.provider,
        let output = view.outputs.firstIndex(where: { $0.provider == provider })
      {
        view.outputs[output].violations.append(finding.violation)
      } else {
        view.issues.append("plan: " + finding.violation.message)
      }
    }
    return view
  }

  public func state(at index: Int) -> StateView {
    guard let state = try? timeline.state(at: index) else { return StateView() }
    let session = state.session.map {
      SessionView(id: $0.id, state: $0.state, user: $0.user, properties: $0.properties)
    }
    return StateView(
      context: ContextView(
        screen: state.screen, history: state.history, session: session, timedEvents: state.timedEvents),
      consent: state.consent.map { ConsentView(scope: $0.scope, granted: $0.granted) })
  }
}

/// Forwards an ``Inspector``'s items to a sink (the live ``Timeline``), then wakes the UI.
public final class NotifyingSink: RecordSink {
  private let sink: any RecordSink
  private let wakeup: Wakeup

  /// A sink delivering to `sink` and signalling `wakeup` after each batch.
  public init(_ sink: any RecordSink, wakeup: Wakeup) {
    self.sink = sink
    self.wakeup = wakeup
  }

  public func receive(_ items: [SinkItem]) {
    sink.receive(items)
    wakeup.signal()
  }

  public func flush() { sink.flush() }
  public func close() { sink.close() }
}
