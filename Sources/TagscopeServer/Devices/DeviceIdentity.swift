/// Who sent an SDK call, as its payload names them: the app and device (the source), the user,
/// the session. Each endpoint fills it from the fields its SDKs really send.
///
/// Its parts are held once, copy-on-write, however many records carry them: a record's copy
/// retains one reference, not up to eight strings.
struct DeviceIdentity: Sendable, Hashable {
  /// The id that names the sending device or install (`context.device.id`, `device_id`,
  /// `$device_id`…), else the anonymous or distinct id the SDK keeps per install; `nil` when the
  /// payload names none (the connection is then the source).
  var deviceID: String? {
    get { parts.values.deviceID }
    set { change(\.deviceID, to: newValue) }
  }
  /// The app's name, when the SDK sends one.
  var app: String? {
    get { parts.values.app }
    set { change(\.app, to: newValue) }
  }
  /// The operating system or platform (`iOS`, `Android`, `web`…).
  var platform: String? {
    get { parts.values.platform }
    set { change(\.platform, to: newValue) }
  }
  /// The device model (`iPhone15,2`, `Pixel 8`).
  var model: String? {
    get { parts.values.model }
    set { change(\.model, to: newValue) }
  }
  /// The identified user, if the call names one.
  var userID: String? {
    get { parts.values.userID }
    set { change(\.userID, to: newValue) }
  }
  /// The anonymous visitor id, if the call names one.
  var anonymousID: String? {
    get { parts.values.anonymousID }
    set { change(\.anonymousID, to: newValue) }
  }
  /// The id the device had before this call, for calls that merge identities (`alias`'s
  /// `previousId`, PostHog's `$anon_distinct_id`).
  var previousID: String? {
    get { parts.values.previousID }
    set { change(\.previousID, to: newValue) }
  }
  /// The SDK's own session id, if it sends one.
  var sessionID: String? {
    get { parts.values.sessionID }
    set { change(\.sessionID, to: newValue) }
  }

  private var parts: Parts

  init(
    deviceID: String? = nil, app: String? = nil, platform: String? = nil, model: String? = nil,
    userID: String? = nil, anonymousID: String? = nil, previousID: String? = nil, sessionID: String? = nil
  ) {
    parts = Parts(
      Values(
        deviceID: Self.present(deviceID), app: Self.present(app), platform: Self.present(platform),
        model: Self.present(model), userID: Self.present(userID), anonymousID: Self.present(anonymousID),
        previousID: Self.present(previousID), sessionID: Self.present(sessionID)))
  }

  /// `text`, or `nil` when it is missing or empty (SDKs send `""` for what they could not read).
  static func present(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }

  static func == (lhs: DeviceIdentity, rhs: DeviceIdentity) -> Bool {
    lhs.parts === rhs.parts || lhs.parts.values == rhs.parts.values
  }

  func hash(into hasher: inout Hasher) {
    parts.values.hash(into: &hasher)
  }

  /// Sets one part: in place when these parts are this identity's alone, else in a copy; not at
  /// all when it already has that value (a record's copy of its bundle's identity stays shared).
  private mutating func change(_ part: WritableKeyPath<Values, String?>, to value: String?) {
    guard parts.values[keyPath: part] != value else { return }
    if !isKnownUniquelyReferenced(&parts) { parts = Parts(parts.values) }
    parts.values[keyPath: part] = value
  }

  /// The parts' values.
  private struct Values: Hashable {
    var deviceID: String?
    var app: String?
    var platform: String?
    var model: String?
    var userID: String?
    var anonymousID: String?
    var previousID: String?
    var sessionID: String?
  }

  /// The parts, shared by copies; changed only while one identity holds them (``change(_:to:)``).
  private final class Parts: @unchecked Sendable {
    var values: Values

    init(_ values: Values) {
      self.values = values
    }
  }
}
