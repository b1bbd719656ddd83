import AnalyticsHub
import TagscopeRecording

/// The SDK devices `listen` has seen and what it remembers of each, by the app and device their
/// payloads name: a payload without a device id is its connection's (`segment@127.0.0.1`).
///
/// Bounded like the native runs (``ServerContext/runLimit``): at most ``limit`` ids are
/// remembered (device, connection and alias ids alike), each with a small ``DeviceState``; a
/// device beyond that is shown by its connection, with no state kept. Not thread-safe: the server
/// keeps it behind a lock.
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
  /// Whether a device was turned away for want of room (reported once).
  private(set) var isFull = false
  private var slots: [Key: Int] = [:]
  private var devices: [Device] = []
  private var labels: Set<String> = []

  init(limit: Int) { self.limit = limit }

  /// Folds `event`, received from `address`, into its device's state: the record's source and
  /// context, and an announcement when the source is new.
  mutating func place(_ event: IngestedEvent, address: String) -> Placement {
    let connection = "\(event.provider)@\(address)"
    let identity = event.identity
    let key: Key
    if let id = identity.deviceID.map(DeviceState.clipped) {
      key = Key(scope: "\(event.provider)\u{0}\(DeviceState.clipped(identity.app ?? ""))", id: id)
    } else {
      key = Key(scope: "", id: connection)
    }
    var announcement: RecordingHeader?
    let slot: Int
    if let known = slots[key] {
      slot = known
    } else if let previous = identity.previousID, let known = slots[Key(scope: key.scope, id: previous)],
      slots.count < limit
    {
      slots[key] = known
      slot = known
    } else if slots.count < limit {
      let label =
        key.scope.isEmpty
        ? connection
        : DeviceLabel.candidates(app: identity.app ?? event.provider, identity: identity, id: key.id)
          .first { !labels.contains($0) } ?? connection
      labels.insert(label)
      slot = devices.count
      slots[key] = slot
      devices.append(Device(label: label))
      announcement = Self.header(event, address: address)
    } else {
      isFull = true
      var scratch = DeviceState()
      return Placement(
        source: connection, context: Self.marked(scratch.apply(event), event: event, address: address),
        announcement: nil)
    }
    let context = devices[slot].state.apply(event)
    return Placement(
      source: devices[slot].label, context: Self.marked(context, event: event, address: address),
      announcement: announcement)
  }

  /// `context` with what Tagscope derived named in `inferred` and the sender in `device`, so a
  /// replay, a validation or a diff of the recording sees the devices and screens `listen` saw.
  static func marked(_ context: RecordContext, event: IngestedEvent, address: String) -> RecordContext {
    var context = context
    var inferred: [PropertyValue] = []
    if context.screen != nil { inferred += ["screen", "history"] }
    if context.session != nil { inferred.append("session") }
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

  /// One device: its label and state.
  private struct Device: Sendable {
    let label: String
    var state = DeviceState()
  }
}
