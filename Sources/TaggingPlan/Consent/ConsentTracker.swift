import AnalyticsHub
import TagscopeRecording

/// What the consent check remembers: per in-app device (`source`; one device for a recording
/// without sources), its consent (AnalyticsHub's ``ConsentState``, from the plan's `default` and
/// its `consent` records) with the record that made each decision, and its user, by which wire
/// sources are joined to it; and which wire sources and providers were reported unchecked.
///
/// Bounded like ``JourneyState``: a device keeps one decision per category and provider the plan
/// names; past ``deviceLimit`` devices the least recently seen half is forgotten; each reported set
/// holds at most ``deviceLimit`` names (then starts afresh, reporting again rather than
/// never).
package struct ConsentTracker: Sendable {
  /// One in-app device's consent.
  struct Device: Sendable {
    var state: ConsentState
    /// The record that made each decision `state` holds.
    var decisions: [ConsentScope: JourneyRecord] = [:]
    /// Its latest user (`context.session.user`).
    var user: String?
    var lastUse = 0
  }

  var devices: [String: Device] = [:]
  /// The in-app devices of each user.
  var users: [String: [String]] = [:]
  /// Wire sources already reported as not checked.
  var uncheckedSources: Set<String> = []
  /// Providers already reported as having no category.
  var uncategorized: Set<String> = []
  private var clock = 0
  /// Records and provider outputs looked at so far: what the bound tests count.
  package internal(set) var work = 0

  /// Devices remembered at most (recordings are untrusted input), and names per reported set.
  static let deviceLimit = 4_096

  /// Nothing remembered.
  package init() {}

  /// Decisions remembered over every device: what stays bounded however long the recording.
  package var remembered: Int { devices.values.reduce(0) { $0 + $1.decisions.count } }

  /// In-app devices remembered.
  package var deviceCount: Int { devices.count }

  /// A new recording starts: a new app launch, whose devices start afresh.
  mutating func startRecording() {
    devices.removeAll()
    users.removeAll()
    uncheckedSources.removeAll()
  }

  /// The state of in-app device `source`, taken out (put it back with ``store(_:source:)``).
  mutating func take(_ source: String, defaultGranted: Bool) -> Device {
    clock += 1
    var device =
      devices.removeValue(forKey: source) ?? Device(state: ConsentState(defaultGranted: defaultGranted))
    device.lastUse = clock
    return device
  }

  /// Puts a device's state back, its user now `user`; forgets the least recently seen half of
  /// the devices past the limit.
  mutating func store(_ device: Device, source: String, previousUser: String?) {
    devices[source] = device
    if device.user != previousUser {
      if let previousUser {
        users[previousUser]?.removeAll { $0 == source }
        if users[previousUser]?.isEmpty == true { users[previousUser] = nil }
      }
      if let user = device.user { users[user, default: []].append(source) }
    }
    guard devices.count > Self.deviceLimit else { return }
    let uses = devices.values.map(\.lastUse).sorted()
    let cut = uses[uses.count / 2]
    devices = devices.filter { $0.value.lastUse >= cut }
    users = [:]
    for (source, device) in devices {
      if let user = device.user { users[user, default: []].append(source) }
    }
  }

  /// The in-app device whose consent applies to a wire record of `user`: the only one, else the
  /// only one of that user; otherwise why none does.
  func join(user: String?) -> Result<String, JoinFailure> {
    if devices.count == 1, let only = devices.keys.first { return .success(only) }
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
