extension Vendor {
  /// Where one form of a vendor's SDK messages says who sent it: for each fact, the dotted paths
  /// its decoder tries in order (the first present wins), from the message's root as the form's
  /// documentation names it (``form``). What is logic, not a place (an anonymous id that names
  /// the device, a session of `-1`), stays in the decoder.
  public struct IdentityFields: Sendable, Hashable {
    /// The messages these fields are for (`track`, `gtag`), as their decoder names them.
    public let form: String
    /// What the paths start from, for people (`the hit's query fields`).
    public let root: String
    /// The signed-in user's id.
    public let user: [String]
    /// The device's (or browser's) id.
    public let device: [String]
    /// The id of a visitor not signed in, when the SDK names one apart from the device.
    public let anonymous: [String]
    /// The id of the user before this one (an alias).
    public let previous: [String]
    /// The session's id.
    public let session: [String]
    /// The app's name.
    public let app: [String]
    /// The platform or operating system.
    public let platform: [String]
    /// The device's model.
    public let model: [String]

    /// Identity fields.
    public init(
      form: String, root: String, user: [String], device: [String], anonymous: [String] = [],
      previous: [String] = [],
      session: [String] = [], app: [String] = [], platform: [String] = [], model: [String] = []
    ) {
      self.form = form
      self.root = root
      self.user = user
      self.device = device
      self.anonymous = anonymous
      self.previous = previous
      self.session = session
      self.app = app
      self.platform = platform
      self.model = model
    }
  }

  /// The identity fields of the form named `form`.
  ///
  /// - Precondition: the vendor declares that form (its decoder and descriptor are written
  ///   together; the registry test reads every form).
  public func identityFields(_ form: String) -> IdentityFields {
    guard let fields = identity.first(where: { $0.form == form }) else {
      preconditionFailure("\(id.rawValue) declares no identity fields for \(form)")
    }
    return fields
  }
}
