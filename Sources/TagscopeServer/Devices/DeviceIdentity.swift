/// Who sent an SDK call, as its payload names them: the app and device (the source), the user,
/// the session. Each endpoint fills it from the fields its SDKs really send.
struct DeviceIdentity: Sendable, Hashable {
  /// The id that names the sending device or install (`context.device.id`, `device_id`,
  /// `$device_id`…), else the anonymous or distinct id the SDK keeps per install; `nil` when the
  /// payload names none (the connection is then the source).
  var deviceID: String?
  /// The app's name, when the SDK sends one.
  var app: String?
  /// The operating system or platform (`iOS`, `Android`, `web`…).
  var platform: String?
  /// The device model (`iPhone15,2`, `Pixel 8`).
  var model: String?
  /// The identified user, if the call names one.
  var userID: String?
  /// The anonymous visitor id, if the call names one.
  var anonymousID: String?
  /// The id the device had before this call, for calls that merge identities (`alias`'s
  /// `previousId`, PostHog's `$anon_distinct_id`).
  var previousID: String?
  /// The SDK's own session id, if it sends one.
  var sessionID: String?

  init(
    deviceID: String? = nil, app: String? = nil, platform: String? = nil, model: String? = nil,
    userID: String? = nil, anonymousID: String? = nil, previousID: String? = nil, sessionID: String? = nil
  ) {
    self.deviceID = Self.present(deviceID)
    self.app = Self.present(app)
    self.platform = Self.present(platform)
    self.model = Self.present(model)
    self.userID = Self.present(userID)
    self.anonymousID = Self.present(anonymousID)
    self.previousID = Self.present(previousID)
    self.sessionID = Self.present(sessionID)
  }

  /// `text`, or `nil` when it is missing or empty (SDKs send `""` for what they could not read).
  static func present(_ text: String?) -> String? {
    guard let text, !text.isEmpty else { return nil }
    return text
  }
}
