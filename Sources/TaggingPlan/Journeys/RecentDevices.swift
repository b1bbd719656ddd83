/// Per-device states, by `listen` source, of the checks that compare a record with earlier ones of
/// its device (journeys, consent). The latest record's device is kept out of the dictionary, so a
/// recording of one device (or a run of records of one) costs no dictionary lookup per record.
/// Bounded (recordings are untrusted input): past ``limit`` devices, the least recently used half
/// is forgotten.
struct RecentDevices<Device: Sendable>: Sendable {
  /// A device's state and when it was last used.
  private struct Kept: Sendable {
    var device: Device
    var lastUse: Int
  }

  /// Devices remembered at most.
  let limit: Int
  /// Every device but the latest.
  private var others: [String: Kept] = [:]
  /// The latest device's key, and its state (`nil` before the first).
  private var latestKey: String?
  private var latest: Kept?
  private var clock = 0

  /// No device remembered yet; at most `limit` later.
  init(limit: Int) {
    self.limit = limit
  }

  /// Devices remembered.
  var count: Int { others.count + (latest == nil ? 0 : 1) }

  /// Forgets every device.
  mutating func removeAll() {
    others.removeAll()
    latestKey = nil
    latest = nil
  }

  /// Makes `key`'s device the latest (`make`'s when it is not remembered); `true` when the least
  /// recently used half of the devices was forgotten to stay within ``limit``.
  @discardableResult
  mutating func select(_ key: String, make: () -> Device) -> Bool {
    clock += 1
    if key == latestKey, latest != nil {
      latest!.lastUse = clock
      return false
    }
    if let latestKey, let latest { others[latestKey] = latest }
    latest = Kept(device: others.removeValue(forKey: key)?.device ?? make(), lastUse: clock)
    latestKey = key
    guard count > limit else { return false }
    let uses = (others.values.map(\.lastUse) + [clock]).sorted()
    let cut = uses[uses.count / 2]
    others = others.filter { $0.value.lastUse >= cut }
    return true
  }

  /// Runs `body` on the latest device, the one ``select(_:make:)`` chose (nothing before the first).
  mutating func updateLatest(_ body: (inout Device) -> Void) {
    guard latest != nil else { return }
    body(&latest!.device)
  }

  /// `body`'s answer on `key`'s device when it is the latest (selecting it would change nothing
  /// but its last use), else `nil`. `body` gets the device in place (a copy of its tables per
  /// record would cost more than the question); it may change it.
  mutating func withLatest<Answer>(_ key: String, _ body: (inout Device) -> Answer) -> Answer? {
    guard key == latestKey, latest != nil else { return nil }
    return body(&latest!.device)
  }

  /// The state of `key`'s device, if remembered.
  subscript(key: String) -> Device? {
    key == latestKey ? latest?.device : others[key]?.device
  }

  /// The key of the only device remembered, if there is exactly one.
  var onlyKey: String? {
    guard count == 1 else { return nil }
    return latest == nil ? others.keys.first : latestKey
  }

  /// Every device with its key, in no particular order.
  var all: [(key: String, device: Device)] {
    var found = others.map { ($0.key, $0.value.device) }
    if let latestKey, let latest { found.append((latestKey, latest.device)) }
    return found
  }
}
