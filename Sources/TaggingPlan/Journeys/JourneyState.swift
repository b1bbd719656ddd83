import AnalyticsHub
import TagscopeRecording

/// What the journey rules remember, per device (`listen` source): its current session, the
/// records later ones are compared with, and each funnel's progress. Each device keeps at most one
/// record per entry and rule (``DuplicateWindow/limit`` property sets per entry for `duplicateWithin`) and one progress
/// per funnel; a session's funnels are closed (and forgotten) when it ends, and the least recently
/// seen devices are forgotten past ``deviceLimit``.
package struct JourneyState: Sendable {
  /// A record remembered with the scope it counts in (session epoch or screen visit).
  struct Seen: Sendable {
    var record: JourneyRecord
    var token: Int
  }

  /// How far a funnel's attempt got in the current session: steps reached, the last one's
  /// record, and whether a step came out of order (then its last step does not reach it).
  struct Progress: Sendable {
    var reached: Int
    var last: JourneyRecord
    var broken = false
  }

  /// One device's state.
  struct Device: Sendable {
    var session: String?
    /// Bumped when a session ends or another starts: records of the same epoch share a session.
    var epoch = 0
    /// Bumped by each screen record.
    var screenVisit = 0
    /// The app run (a record's `run`, which `listen` adds from its stream's header) last seen,
    /// and a number bumped when another run starts: records of the same number share an app
    /// launch.
    var run: String?
    var launch = 0
    var predecessors: [Int: Seen] = [:]
    var once: [Int: Seen] = [:]
    var duplicates: [Int: DuplicateWindow] = [:]
    var funnels: [Int: Progress] = [:]
    /// Funnels whose attempt ended in the current session (reached, dropped past `maxGap` or
    /// finished after a break): their later steps pass unremarked until step 1 starts another.
    /// At most one number per funnel of the plan, and no record.
    var endedFunnels: Set<Int> = []

    /// Records remembered.
    var size: Int {
      predecessors.count + once.count + duplicates.values.reduce(0) { $0 + $1.count } + funnels.count
    }
  }

  var devices = RecentDevices<Device>(limit: deviceLimit)
  /// Where the record being checked is in its recording, when read from one: the records the
  /// findings name carry it (``JourneyRecord/place``).
  package var place: RecordLine?
  /// Rule and funnel-step checks made so far: what the bound tests count.
  package internal(set) var work = 0

  /// Devices remembered at most (recordings are untrusted input).
  static let deviceLimit = 4_096

  /// Nothing remembered.
  package init() {}

  /// Records remembered over every device: what stays bounded however long the recording.
  package var remembered: Int {
    devices.all.reduce(0) { $0 + $1.device.size }
  }

  /// Devices remembered.
  package var deviceCount: Int { devices.count }

  /// A new recording starts, or a live session's segment (`POST /reset`): a new app launch,
  /// whose devices start afresh (their session, screen and app-launch scopes ended, their funnels
  /// under way forgotten).
  mutating func startRecording() { devices.removeAll() }

  /// Whether a record of `digest` in session `session`, made at `time`, passes the journey rules
  /// on `source`'s device as ``JourneyCheck/run(_:plan:device:entry:work:)`` would, with no
  /// finding: the latest device, and either the record of no journey rule, in that session or
  /// starting another with no funnel under way (closing the device's session then drops none),
  /// a session's end (``SequenceDigest/endsSession``) with no funnel under way, a record of a
  /// `duplicateWithin` rule alone (``SequenceDigest/duplicates``) with no duplicate on the device,
  /// in that session or starting another with no funnel under way, or a funnel step
  /// (``SequenceDigest/steps``) in that session moving each of its funnels on
  /// (``JourneyCheck/movesOn(_:time:plan:device:)``). Nothing is changed: then
  /// ``pass(_:seq:time:session:plan:marks:)`` counts it.
  mutating func passes(_ digest: SequenceDigest, source: String, session: String?, time: Int64, plan: Plan)
    -> Bool
  {
    guard !digest.needsRecord else { return false }
    return devices.withLatest(source) { device in
      guard let entry = digest.steps else {
        if let entry = digest.duplicates, let properties = digest.properties,
          JourneyCheck.duplicates(entry, of: properties, at: time, plan: plan, device: device)
        {
          return false
        }
        return device.funnels.isEmpty || (!digest.endsSession && device.session == session)
      }
      guard device.session == session else { return false }
      for role in plan.journeys.roles[entry]
      where !JourneyCheck.movesOn(role, time: time, plan: plan, device: device) {
        return false
      }
      return true
    } == true
  }

  /// Counts the record of `digest` numbered `seq`, made at `time` in `session`, that
  /// ``passes(_:source:session:time:plan:)`` on the device of records without a source: the
  /// session it starts, if another, its screen visit, if a screen, its funnel steps, if any (a
  /// funnel it completes added to `marks`), its properties noted for its `duplicateWithin` rule, if
  /// it has one, and the session's rules started afresh, if it ends its session. The record's
  /// reference (``JourneyRecord``) is made only for a step or a `duplicateWithin` rule, which keep it.
  mutating func pass(
    _ digest: SequenceDigest, seq: UInt64, time: Int64, session: String?, plan: Plan,
    marks: inout [CoverageMark]
  ) {
    devices.select("", make: Device.init)
    var work = work
    devices.updateLatest { device in
      if device.session != session {
        JourneyCheck.restart(&device, entries: plan.entries)
        device.session = session
      }
      if digest.isScreen { device.screenVisit += 1 }
      if digest.endsSession { JourneyCheck.restart(&device, entries: plan.entries) }
      guard digest.duplicates != nil || digest.steps != nil else { return }
      let record = JourneyRecord(seq: seq, name: digest.name, time: time, session: session, place: place)
      if let entry = digest.duplicates, let properties = digest.properties {
        work += 1
        JourneyCheck.remember(properties, of: entry, record: record, plan: plan, device: &device)
      }
      guard let entry = digest.steps else { return }
      for role in plan.journeys.roles[entry] {
        work += 1
        JourneyCheck.moveOn(role, record: record, plan: plan, device: &device, marks: &marks)
      }
    }
    self.work = work
  }
}
