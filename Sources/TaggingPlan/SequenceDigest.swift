import AnalyticsHub
import TagscopeRecording

/// What the checks that compare a record with earlier ones (journeys, consent) read of a record,
/// decided once for every record of the same content (kind, name, properties, screen, outputs: a
/// line cache's key): a record whose device consents to each provider it calls, and stays in its
/// session or starts it with no funnel under way, passes them with this and its line's session id,
/// user, `seq` and time alone, without being decoded or copied; so does a funnel step that moves
/// each of its funnels on (or repeats an earlier step) in its session with no finding, a record
/// whose only journey rule is `duplicateWithin` with no record of the same properties in its
/// window, and a session's end with no funnel under way.
///
/// A class: a line cache's entry hands it to each repeated line with one reference counted
/// rather than a copy of each of its fields.
package final class SequenceDigest: Sendable {
  /// Whether the checks need the record itself whatever its device's state: a tag with a journey
  /// rule of its own or another's `after` naming it, a `consent` record whose decision is not
  /// known, a record from an SDK, or a call of a provider the plan's consent gives no category.
  package let needsRecord: Bool
  /// The plan entry of a tag whose only journey rules are the funnels it is a step of: its
  /// funnels move on from the digest when none finds anything (``JourneyState/passes(_:source:session:time:plan:)``).
  let steps: Int?
  /// The plan entry of a tag whose only journey rule is `duplicateWithin`: it passes when its
  /// device has no record of the tag with ``properties`` within the window
  /// (``JourneyCheck/duplicates(_:of:at:plan:device:)``).
  let duplicates: Int?
  /// Its properties, when it has ``duplicates`` (their storage shared with the record a line cache
  /// keeps, which ``bytes`` does not count again).
  let properties: Properties?
  /// Its name: what a funnel's progress names.
  let name: String
  /// Whether it counts a screen visit.
  let isScreen: Bool
  /// Whether it has a session (`context.session`).
  let hasSession: Bool
  /// Whether it ends its session (a `sessionEnd` record): with no funnel under way on its device,
  /// its session's rules start afresh and nothing is found.
  let endsSession: Bool
  /// The category and decision id of each provider it calls (``ConsentTracker/isCall(_:)``).
  let calls: [PlanConsent.Member.Resolved]
  /// ``calls`` as bits (bit i: the plan's consent member i), when each is one of its first 64:
  /// what a repeated record's consent check reads, without reading the calls.
  let callBits: UInt64?
  /// Its provider outputs: what the consent check counts as work for it (none for a `consent`
  /// record, exempt).
  let outputs: Int
  /// A `consent` record's decision, when the plan has consent.
  let decision: ConsentDecision?

  /// The digest of `record` for `plan`'s journey rules and consent (both read in place: an
  /// initializer would otherwise take a copy of each).
  package init(_ record: borrowing Record, plan: borrowing Plan) {
    var needsRecord = false
    var steps: Int?
    var duplicates: Int?
    if plan.journeys.isActive {
      let entry = JourneyCheck.entry(of: record, plan: plan)
      needsRecord = entry.map { plan.journeys.isRuled[$0] } ?? false
      if needsRecord, let entry, !plan.journeys.isPredecessor[entry] {
        let rules = plan.entries[entry].journey
        if rules.isEmpty {
          needsRecord = false
          steps = entry
        } else if rules.after == nil, rules.once == nil, plan.journeys.roles[entry].isEmpty {
          needsRecord = false
          duplicates = entry
        }
      }
    }
    var calls: [PlanConsent.Member.Resolved] = []
    var decision: ConsentDecision?
    var isConsent = false
    if let consent = plan.consent {
      needsRecord = needsRecord || record.isFromSDK
      isConsent = record.kind == .consent
      if isConsent {
        let decided = ConsentDecision(properties: record.properties, consent: consent)
        if case .unknown = decided { needsRecord = true }
        decision = decided
      }
      // By index: a copy of each output (its calls) would cost more than the look-up. A `consent`
      // record (its decision read) calls nothing the check looks at.
      for index in record.outputs.indices where !isConsent && ConsentTracker.isCall(record.outputs[index]) {
        guard let resolved = consent.resolve(record.outputs[index].provider) else {
          needsRecord = true
          continue
        }
        calls.append(resolved)
      }
    }
    self.needsRecord = needsRecord
    self.steps = steps
    self.duplicates = duplicates
    properties = duplicates == nil ? nil : record.properties
    name = record.name
    isScreen = record.kind == .screen
    hasSession = record.context.session != nil
    endsSession = plan.journeys.isActive && record.kind == .sessionEnd
    self.calls = calls
    var bits: UInt64? = 0
    for call in calls { bits = call.index < 64 ? bits.map { $0 | 1 << UInt64(call.index) } : nil }
    callBits = bits
    outputs = isConsent ? 0 : record.outputs.count
    self.decision = decision
  }

  /// Whether a line's session fits the record: both have one (the line's id read), or neither.
  package func fits(_ session: LineSession) -> Bool {
    hasSession ? session.id != nil : session.id == nil && session.user == nil
  }

  /// Whether a line cache keeps the record (``TaggingPlan/Record/sequenceFields``) for when the
  /// digest does not answer: it needs it, or it is a funnel step, of a `duplicateWithin` rule or a
  /// session's end.
  package var keepsRecord: Bool { needsRecord || steps != nil || duplicates != nil || endsSession }

  /// About how many bytes it holds: what a line cache counts for it.
  package var bytes: Int { 80 + 16 * calls.count }
}

extension PlanValidator {
  /// The ``SequenceDigest`` of `record` for this validator's plan (read in place, not copied).
  package func sequenceDigest(of record: Record) -> SequenceDigest {
    SequenceDigest(record, plan: plan)
  }

  /// Finishes a record of `digest` in `session`, numbered `seq` and made at `time` (milliseconds
  /// since 1970; its device the records' without a `source`) the way
  /// ``complete(_:marks:violations:)`` would, without the record: when its device consents to
  /// each provider it calls and stays in that session (moving its funnels on with no finding, if
  /// a step; with no duplicate, if of a `duplicateWithin` rule) or starts or ends it with no funnel
  /// under way, it passes the journey and consent checks (the session started or ended, its user,
  /// screen visit, funnel steps, properties and consent decision noted, a funnel it completes added
  /// to `marks`), is counted and its `marks` applied. `false`, with nothing changed, when they need
  /// the record: finish it with ``complete(_:marks:violations:)``.
  package mutating func complete(
    _ digest: SequenceDigest, session: LineSession, seq: UInt64, time: Int64, marks: inout [CoverageMark]
  ) -> Bool {
    guard !digest.needsRecord, digest.fits(session) else { return false }
    let journeys = plan.journeys.isActive
    guard !journeys || state.journeys.passes(digest, source: "", session: session.id, time: time, plan: plan)
    else { return false }
    if let consent = plan.consent {
      guard state.consent.passes(digest, source: "", consent: consent) else { return false }
      state.consent.pass(digest, seq: seq, time: time, source: "", session: session, consent: consent)
    }
    if journeys {
      state.journeys.pass(digest, seq: seq, time: time, session: session.id, plan: plan, marks: &marks)
    }
    replay(marks: marks)
    return true
  }
}

extension LineSession {
  /// The session id and user of `record` (each `nil` without a session).
  package init(of record: Record) {
    self.init(id: record.context.session?.id, user: record.context.session?.user)
  }
}
