import AnalyticsHub
import TagscopeRecording

/// What the journey rules remember, per device (`listen` source): its current session, the
/// records later ones are compared with, and each funnel's progress. Each device keeps at most one
/// record per entry and rule (``duplicateSlots`` per entry for `duplicateWithin`) and one progress
/// per funnel; a session's funnels are closed (and forgotten) when it ends, and the least recently
/// seen devices are forgotten past ``deviceLimit``.
package struct JourneyState: Sendable {
  /// A record remembered with the scope it counts in (session epoch or screen visit).
  struct Seen: Sendable {
    var record: JourneyRecord
    var token: Int
  }

  /// A record remembered for `duplicateWithin`, with its properties.
  struct Slot: Sendable {
    var properties: Properties
    var record: JourneyRecord
  }

  /// How far a funnel got in the current session: steps reached, and the last one's record.
  struct Progress: Sendable {
    var reached: Int
    var last: JourneyRecord
  }

  /// One device's state.
  struct Device: Sendable {
    var session: String?
    /// Bumped when a session ends or another starts: records of the same epoch share a session.
    var epoch = 0
    /// Bumped by each screen record.
    var screenVisit = 0
    var predecessors: [Int: Seen] = [:]
    var once: [Int: Seen] = [:]
    var duplicates: [Int: [Slot]] = [:]
    var funnels: [Int: Progress] = [:]

    /// Records remembered.
    var size: Int {
      predecessors.count + once.count + duplicates.values.reduce(0) { $0 + $1.count } + funnels.count
    }
  }

  var devices = RecentDevices<Device>(limit: deviceLimit)
  /// Rule and funnel-step checks made so far: what the bound tests count.
  package internal(set) var work = 0

  /// Devices remembered at most (recordings are untrusted input).
  static let deviceLimit = 4_096
  /// Distinct property sets remembered per entry within its `duplicateWithin` window.
  static let duplicateSlots = 8

  /// Nothing remembered.
  package init() {}

  /// Records remembered over every device: what stays bounded however long the recording.
  package var remembered: Int {
    devices.all.reduce(0) { $0 + $1.device.size }
  }

  /// Devices remembered.
  package var deviceCount: Int { devices.count }

  /// A new recording starts: a new app launch, whose devices start afresh.
  mutating func startRecording() { devices.removeAll() }

  /// Whether a record of `digest` in session `session` passes the journey rules on `source`'s
  /// device as ``JourneyCheck/run(_:entry:work:)`` would, with no finding: the latest device, the
  /// record of no journey rule, and either in that session or starting another with no funnel
  /// under way (closing the device's session then drops none). Nothing is changed: then
  /// ``pass(_:source:session:plan:)`` counts it.
  mutating func passes(_ digest: SequenceDigest, source: String, session: String?) -> Bool {
    guard !digest.needsRecord else { return false }
    return devices.withLatest(source) { $0.session == session || $0.funnels.isEmpty } == true
  }

  /// Counts a record that ``passes(_:source:session:)``: the session it starts, if another, and
  /// its screen visit, if a screen.
  mutating func pass(_ digest: SequenceDigest, source: String, session: String?, plan: Plan) {
    devices.select(source, make: Device.init)
    devices.updateLatest { device in
      if device.session != session {
        JourneyCheck.restart(&device, entries: plan.entries)
        device.session = session
      }
      if digest.isScreen { device.screenVisit += 1 }
    }
  }
}
