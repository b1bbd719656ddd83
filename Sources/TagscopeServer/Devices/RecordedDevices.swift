import AnalyticsHub
import TagscopeRecording

/// The SDK devices of a recording `listen` continues, read from its records: for each device,
/// its label and the context its last record there carried (screens, session, user), so the
/// device's next call carries on from there instead of from nothing.
///
/// Keeps at most twice ``ServerContext/deviceLimit`` devices while reading (the longest unseen
/// are dropped); the server then takes the most recently seen ones it has room for.
public struct RecordedDevices: Sendable {
  /// One device as the recording last showed it.
  struct Device: Sendable {
    /// The namespace of its id (see ``DeviceRegistry/scope(provider:app:)``); empty for a
    /// connection.
    var scope: String
    /// The device id, or the connection for a payload that named none.
    var id: String
    var label: String
    var context: RecordContext
    var lastSeen: Int
  }

  private var byLabel: [String: Device] = [:]
  private var seen = 0

  /// No devices.
  public init() {}

  /// How many devices were read.
  public var count: Int { byLabel.count }

  /// The devices, most recently seen first.
  var devices: [Device] { byLabel.values.sorted { $0.lastSeen > $1.lastSeen } }

  /// Notes `record` if `listen` wrote it from an SDK's call (it names the sending device in
  /// `context.device`); other records are ignored.
  public mutating func note(_ record: Record) {
    guard let label = record.source, case .object(let device)? = record.context.extra["device"],
      let provider = record.outputs.first?.provider
    else { return }
    seen += 1
    let key: (scope: String, id: String)
    if case .string(let id)? = device["id"] {
      let app: String? = if case .string(let app)? = device["app"] { app } else { nil }
      key = (DeviceRegistry.scope(provider: provider, app: app), id)
    } else {
      key = ("", label)
    }
    byLabel[label] = Device(
      scope: key.scope, id: key.id, label: label, context: record.context, lastSeen: seen)
    let bound = 2 * ServerContext.deviceLimit
    if byLabel.count > bound {
      for device in devices.suffix(byLabel.count - bound / 2) { byLabel[device.label] = nil }
    }
  }
}
