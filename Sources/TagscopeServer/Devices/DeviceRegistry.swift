import AnalyticsHub
import TagscopeRecording

/// The SDK devices `listen` has seen and what it remembers of each, by the app and device their
/// payloads name: a payload without a device id is its connection's (`segment@127.0.0.1`).
///
/// Bounded like the native runs (``ServerContext/runLimit``): at most ``limit`` ids are
/// remembered (device, connection and alias ids alike), each with a small ``DeviceState``. A new
/// device past that makes room by forgetting the longest idle devices (an eighth of the limit at
/// once, so a client inventing a device id per call costs one sort per eighth): their records
/// keep their source label, and a forgotten device that calls again starts a new state under the
/// same label. Not thread-safe: the server keeps it behind a lock.
struct DeviceRegistry: Sendable {
  /// Where one call's record goes and what it carries.
  struct Placement: Sendable {
    /// The record's source.
    var source: String
    /// The record's context, from the device's state.
    var context: RecordContext
    /// The source's announcement, the first time it is seen.
    var announcement: RecordingHeader?
  }

  /// The most ids remembered.
  let limit: Int
  /// Devices forgotten to make room for new ones.
  private(set) var forgotten = 0
  /// The ids remembered now.
  var tracked: Int { slots.count }
  private var slots: [Key: Int] = [:]
  /// Devices by slot; `nil` once forgotten (the slot is then in `free`).
  private var devices: [Device?] = []
  private var free: [Int] = []
  private var labels: Set<String> = []
  /// Counts calls, to tell the longest idle device.
  private var clock: UInt64 = 0
  /// The last context marked (``marked(_:event:address:)``), to share its fields with the next
  /// record's when they are the same: a batch's records then hold one copy, not one each.
  private var lastMarked: Marked?

  init(limit: Int) { self.limit = max(1, limit) }

  /// The devices of a recording being continued: each device's state as its last record there
  /// left it (see ``RecordedDevices``), under its label.
  init(limit: Int, restoring recorded: RecordedDevices) {
    self.init(limit: limit)
    for device in recorded.devices.prefix(self.limit) {
      let key = Key(scope: device.scope, id: device.id)
      guard slots[key] == nil, !labels.contains(device.label) else { continue }
      clock += 1
      slots[key] = devices.count
      labels.insert(device.label)
      devices.append(
        Device(
          label: device.label, state: DeviceState(restoring: device.context), keys: [key], lastUsed: clock))
    }
  }

  /// Folds `event`, received from `address`, into its device's state: the record's source and
  /// context, and an announcement when the source is new.
  mutating func place(_ event: IngestedEvent, address: String) -> Placement {
    let connection = "\(event.provider)@\(address)"
    let identity = event.identity
    let key: Key
    if let id = identity.deviceID.map(DeviceState.clipped) {
      key = Key(scope: Self.scope(provider: event.provider, app: identity.app), id: id)
    } else {
      key = Key(scope: "", id: connection)
    }
    clock += 1
    var announcement: RecordingHeader?
    let slot: Int
    if let known = slots[key] {
      slot = known
    } else {
      if slots.count >= limit { forgetIdle() }
      if let previous = identity.previousID, let known = slots[Key(scope: key.scope, id: previous)] {
        slots[key] = known
        devices[known]?.keys.append(key)
        slot = known
      } else {
        let label =
          key.scope.isEmpty
          ? connection
          : DeviceLabel.candidates(app: identity.app ?? event.provider, identity: identity, id: key.id)
            .first { !labels.contains($0) } ?? connection
        labels.insert(label)
        let device = Device(label: label, keys: [key], lastUsed: clock)
        if let reused = free.popLast() {
          slot = reused
          devices[slot] = device
        } else {
          slot = devices.count
          devices.append(device)
        }
        slots[key] = slot
        announcement = Self.header(event, address: address)
      }
    }
    devices[slot]!.lastUsed = clock
    let context = devices[slot]!.state.apply(event)
    return Placement(
      source: devices[slot]!.label, context: marking(context, event: event, address: address),
      announcement: announcement)
  }

  /// ``marked(_:event:address:)``, its fields shared with the previous record's when they are the
  /// same (same sender, connection and context fields).
  private mutating func marking(_ context: RecordContext, event: IngestedEvent, address: String)
    -> RecordContext
  {
    let sender = Sender(event.identity, address: address)
    if let last = lastMarked, last.sender == sender, last.context == context {
      return last.marked
    }
    let marked = Self.marked(context, event: event, address: address)
    lastMarked = Marked(sender: sender, context: context, marked: marked)
    return marked
  }

  /// A context before and after it was marked, and for which sender.
  private struct Marked: Sendable {
    var sender: Sender
    var context: RecordContext
    var marked: RecordContext
  }

  /// What ``description(_:address:)`` reads of a sender.
  private struct Sender: Equatable, Sendable {
    var deviceID, app, platform, model: String?
    var address: String

    init(_ identity: DeviceIdentity, address: String) {
      (deviceID, app, platform, model) = (identity.deviceID, identity.app, identity.platform, identity.model)
      self.address = address
    }
  }

  /// Forgets the longest idle devices, with every id they had, until an eighth of the limit is
  /// free.
  private mutating func forgetIdle() {
    let target = limit - max(1, limit / 8)
    let idle = devices.indices.compactMap { slot in devices[slot].map { (slot, $0.lastUsed) } }
      .sorted { $0.1 < $1.1 }
    for (slot, _) in idle {
      guard slots.count > target, let device = devices[slot] else { break }
      for key in device.keys { slots[key] = nil }
      labels.remove(device.label)
      devices[slot] = nil
      free.append(slot)
      forgotten += 1
    }
  }

  /// The namespace of a device id: its SDK and app.
  static func scope(provider: String, app: String?) -> String {
    "\(provider)\u{0}\(DeviceState.clipped(app ?? ""))"
  }

  /// `context` with what Tagscope derived named in `inferred` and the sender in `device`, so a
  /// replay, a validation or a diff of the recording sees the devices and screens `listen` saw.
  static func marked(_ context: RecordContext, event: IngestedEvent, address: String) -> RecordContext {
    var context = context
    var inferred: [PropertyValue] = []
    if context.screen != nil { inferred += ["screen", "history"] }
    if let session = context.session {
      inferred.append("session")
      if session.user == nil, session.extra["anonymousId"] != nil { inferred.append("anonymous") }
    }
    context.extra["inferred"] = .array(inferred)
    context.extra["device"] = .object(description(event.identity, address: address))
    return context
  }

  /// The sender as the payload names it, with the connection it came through.
  static func description(_ identity: DeviceIdentity, address: String) -> Properties {
    var fields = Properties()
    for (key, value) in [
      ("id", identity.deviceID), ("app", identity.app), ("platform", identity.platform),
      ("model", identity.model),
    ] {
      if let value { fields[key] = .string(DeviceState.clipped(value)) }
    }
    fields["connection"] = .string(address)
    return fields
  }

  /// A new source's announcement: the SDK as its app, the connection as its device, and what
  /// the payload says of the device.
  static func header(_ event: IngestedEvent, address: String) -> RecordingHeader {
    var extra = description(event.identity, address: address)
    extra["provider"] = .string(event.provider)
    return RecordingHeader(app: event.provider, device: address, extra: extra)
  }

  /// An id in its namespace: the SDK and app for a device id, empty for a connection.
  private struct Key: Hashable, Sendable {
    var scope: String
    var id: String
  }

  /// One device: its label, state, the ids it is known by and when it last called.
  private struct Device: Sendable {
    let label: String
    var state = DeviceState()
    var keys: [Key]
    var lastUsed: UInt64
  }
}
