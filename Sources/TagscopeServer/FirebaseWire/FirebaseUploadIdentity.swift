import AnalyticsHub
import TagscopeVendors

/// Who sent a bundle of a Firebase upload, read where the vendor registry says
/// (`Vendor.IdentityFields.firebaseUploadBundle`): a bundle field by its schema name, a user
/// property (`user_property.NAME`), or, for the session, an event's own parameter (`param.NAME`,
/// which comes before the bundle's).
enum FirebaseUploadIdentity {
  static let fields = Vendor.IdentityFields.firebaseUploadBundle
  /// The event parameters that name an event's own session, in the registry's order.
  static let sessionParameters = fields.session.compactMap { path in
    path.hasPrefix(parameterPrefix) ? String(path.dropFirst(parameterPrefix.count)) : nil
  }
  private static let parameterPrefix = "param."
  private static let userPropertyPrefix = "user_property."

  /// The user properties the registry reads identities from, by name.
  static let propertyNames = Set(
    [fields.device, fields.app, fields.platform, fields.model, fields.user, fields.session].joined()
      .compactMap {
        path in path.hasPrefix(userPropertyPrefix) ? String(path.dropFirst(userPropertyPrefix.count)) : nil
      })

  /// The bundle's device, app, platform, model, user and session (its own, before any event's).
  static func of(_ bundle: Tagscope_Firebase_Bundle) -> DeviceIdentity {
    of(
      context: FirebaseUploadRecords.context(bundle),
      userProperties: bundle.userProperty.lazy.map(FirebasePropertyFields.init))
  }

  /// ``of(_:)`` from the bundle's context (``FirebaseUploadRecords/context(_:)``) and its user
  /// properties, read apart (of each name ``propertyNames`` holds, the last one counts).
  static func of(context: Properties, userProperties: some Sequence<FirebasePropertyFields>) -> DeviceIdentity
  {
    var properties: [String: FirebasePropertyFields] = [:]
    for property in userProperties where propertyNames.contains(property.name) {
      properties[property.name] = property
    }
    func first(_ sources: [Source]) -> String? { Self.first(sources, in: context, properties: properties) }
    return DeviceIdentity(
      deviceID: first(Sources.device), app: first(Sources.app), platform: first(Sources.platform),
      model: first(Sources.model), userID: first(Sources.user), sessionID: first(Sources.session))
  }

  /// Where a registry path reads, its text parsed once (each bundle read it again: a fiftieth of
  /// decoding an upload).
  private enum Source {
    /// A user property, by name.
    case property(String)
    /// A bundle field, by its schema name.
    case field(String)
  }

  /// The registry's paths of each identity part, parsed; an event parameter's path is left out
  /// (an event's, never the bundle's).
  private enum Sources {
    static let device = parse(fields.device)
    static let app = parse(fields.app)
    static let platform = parse(fields.platform)
    static let model = parse(fields.model)
    static let user = parse(fields.user)
    static let session = parse(fields.session)

    static func parse(_ paths: [String]) -> [Source] {
      paths.compactMap { path in
        if path.hasPrefix(userPropertyPrefix) {
          return .property(String(path.dropFirst(userPropertyPrefix.count)))
        }
        if path.hasPrefix(parameterPrefix) { return nil }
        return .field(path)
      }
    }
  }

  /// The first of `sources` the bundle holds, as text.
  private static func first(
    _ sources: [Source], in context: Properties, properties: [String: FirebasePropertyFields]
  ) -> String? {
    for source in sources {
      switch source {
      case .property(let name):
        if let text = properties[name]?.text { return text }
      case .field(let name):
        if let text = field(name, of: context) { return text }
      }
    }
    return nil
  }

  /// A bundle field the registry may name, by its schema name (its key in the context); `nil`
  /// when unset or empty.
  private static func field(_ name: String, of context: Properties) -> String? {
    switch name {
    case "app_instance_id", "app_id", "platform", "device_model":
      guard case .string(let text)? = context[name] else { return nil }
      return DeviceIdentity.present(text)
    default: return nil
    }
  }
}
