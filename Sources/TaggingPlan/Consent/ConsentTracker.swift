import AnalyticsHub
import TagscopeRecording

/// What the consent check remembers: per in-app device (`source`; one device for a recording
/// without sources), its consent (AnalyticsHub's ``ConsentState``, from the hub's default its
/// recording holds, else the plan's `default`, and its `consent` records) with the record that made each decision, and its user, by which wire
/// sources are joined to it; and which wire sources and providers were reported unchecked.
///
/// Bounded like ``JourneyState``: a device keeps one decision per category and provider the plan
/// names; past ``deviceLimit`` devices the least recently seen half is forgotten; each reported set
/// holds at most ``deviceLimit`` names (then starts afresh, reporting again rather than
/// never).
package struct ConsentTracker: Sendable {
  /// One in-app device's consent.
  struct Device: Sendable {
    var state: ConsentState {
      didSet { granted = nil }
    }
    /// Whether each of the plan's consent members has consent under `state`
    /// (``PlanConsent/grants(_:)``), worked out when first asked after `state` changed.
    private var granted: [Bool]?
    /// The first 64 of `granted` as bits (bit i: member i), worked out with it.
    private var grantedBits: UInt64 = 0
    /// The record that made each decision `state` holds.
    var decisions: [ConsentScope: JourneyRecord] = [:]
    /// The record of the hub's default consent (``ConsentDefault``, recorded at attach), which
    /// `state`'s default is when there is one; else `state`'s default is the plan's.
    var defaultRecord: JourneyRecord?
    /// Its latest user (`context.session.user`).
    var user: String?

    init(state: ConsentState) {
      self.state = state
    }

    /// Whether `member` (one of `consent`'s) has consent on it: `state`'s answer, remembered
    /// until `state` changes.
    mutating func grants(_ member: PlanConsent.Member.Resolved, consent: PlanConsent) -> Bool {
      if granted == nil { workOutGranted(consent) }
      return granted![member.index]
    }

    /// Whether each member of `bits` (bit i: `consent`'s member i, one of its first 64) has
    /// consent on it, as ``grants(_:consent:)`` answers for each.
    mutating func grantsEach(of bits: UInt64, consent: PlanConsent) -> Bool {
      if granted == nil { workOutGranted(consent) }
      return grantedBits & bits == bits
    }

    private mutating func workOutGranted(_ consent: PlanConsent) {
      let answers = consent.grants(state)
      grantedBits = 0
      for index in answers.indices.prefix(64) where answers[index] { grantedBits |= 1 << UInt64(index) }
      granted = answers
    }
  }

  var devices = RecentDevices<Device>(limit: deviceLimit)
  /// The in-app devices of each user.
  var users: [String: [String]] = [:]
  /// Wire sources already reported as not checked.
  var uncheckedSources: Set<String> = []
  /// Providers already reported as having no category.
  var uncategorized: Set<String> = []
  /// The decisions wire sources sent themselves (Adobe Edge's set-consent), by source: applied to
  /// their own wire calls over the in-app device's (`applyWire`); at most
  /// ``deviceLimit`` sources, then started afresh.
  var wireDevices: [String: Device] = [:]
  /// Where the record being checked is in its recording, when read from one: the records the
  /// findings name carry it (``JourneyRecord/place``).
  package var place: RecordLine?
  /// Records and provider outputs looked at so far: what the bound tests count.
  package internal(set) var work = 0

  /// Devices remembered at most (recordings are untrusted input), and names per reported set.
  static let deviceLimit = 4_096

  /// Nothing remembered.
  package init() {}

  /// Decisions remembered over every device: what stays bounded however long the recording.
  package var remembered: Int {
    devices.all.reduce(0) { $0 + $1.device.decisions.count }
  }

  /// In-app devices remembered.
  package var deviceCount: Int { devices.count }

  /// A new recording starts: a new app launch, whose devices start afresh.
  mutating func startRecording() {
    devices.removeAll()
    users.removeAll()
    uncheckedSources.removeAll()
    wireDevices.removeAll()
  }

  /// Makes in-app device `source` the latest one (see ``RecentDevices``), a new one with the plan's
  /// default when not remembered; when devices were forgotten, so are their users.
  mutating func select(_ source: String, defaultGranted: Bool) {
    guard devices.select(source, make: { Device(state: ConsentState(defaultGranted: defaultGranted)) }) else {
      return
    }
    users = [:]
    for (source, device) in devices.all {
      if let user = device.user { users[user, default: []].append(source) }
    }
  }

  /// Notes that in-app device `source` changed its user from `previousUser` to `user`.
  mutating func moveUser(of source: String, from previousUser: String?, to user: String?) {
    guard user != previousUser else { return }
    if let previousUser {
      users[previousUser]?.removeAll { $0 == source }
      if users[previousUser]?.isEmpty == true { users[previousUser] = nil }
    }
    if let user { users[user, default: []].append(source) }
  }

  /// The in-app device whose consent applies to a wire record of `user`: the only one, else the
  /// only one of that user; otherwise why none does.
  func join(user: String?) -> Result<String, JoinFailure> {
    if let only = devices.onlyKey { return .success(only) }
    if let user, let matching = users[user], matching.count == 1 { return .success(matching[0]) }
    return .failure(
      JoinFailure(devices: devices.count, user: user, sameUser: user.flatMap { users[$0]?.count } ?? 0))
  }

  /// Why a wire record is joined to no in-app device.
  struct JoinFailure: Error {
    var devices: Int
    var user: String?
    var sameUser: Int

    /// `2 in-app devices and no identity to join them`.
    var text: String {
      let count =
        devices == 0 ? "no in-app device" : devices == 1 ? "1 in-app device" : "\(devices) in-app devices"
      guard let user, devices > 1 else { return "\(count) and no identity to join them" }
      return sameUser > 1
        ? "\(count), \(sameUser) of them user \(user)" : "\(count) and none of them user \(user)"
    }
  }

  /// Notes `name` in a reported set; `false` when it was already there.
  static func firstReport(_ name: String, in set: inout Set<String>) -> Bool {
    if set.contains(name) { return false }
    if set.count >= deviceLimit { set.removeAll() }
    set.insert(name)
    return true
  }
}
