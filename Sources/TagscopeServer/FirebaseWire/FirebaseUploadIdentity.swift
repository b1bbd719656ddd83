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

  /// The bundle's device, app, platform, model, user and session (its own, before any event's).
  static func of(_ bundle: Tagscope_Firebase_Bundle) -> DeviceIdentity {
    of(
      context: FirebaseUploadRecords.context(bundle),
      userProperties: bundle.userProperty.lazy.map(FirebasePropertyFields.init))
  }

  /// ``of(_:)`` from the bundle's context (``FirebaseUploadRecords/context(_:)``) and its user
  /// properties, read apart (of a name the registry reads, the last one counts: looked for from
  /// the end, a few names among a few properties, no index made for them).
  static func of(
    context: Properties, userProperties: some BidirectionalCollection<FirebasePropertyFields>
  ) -> DeviceIdentity {
    func first(_ sources: [Source]) -> String? {
      Self.first(sources, in: context, properties: userProperties)
    }
    let all = sources
    return DeviceIdentity(
      deviceID: first(all.device), app: first(all.app), platform: first(all.platform),
      model: first(all.model), userID: first(all.user), sessionID: first(all.session))
  }

  /// Where a registry path reads, its text parsed once (each bundle read it again: a fiftieth of
  /// decoding an upload).
  private enum Source {
    /// A user property, by name.
    case property(String)
    /// A bundle field, by its schema name.
    case field(String)
  }

  /// The registry's paths of each identity part, parsed once, all together (one initialization
  /// checked per bundle); an event parameter's path is left out (an event's, never the bundle's).
  private struct Sources {
    var device = parse(fields.device)
    var app = parse(fields.app)
    var platform = parse(fields.platform)
    var model = parse(fields.model)
    var user = parse(fields.user)
    var session = parse(fields.session)

    static func parse(_ paths: [String]) -> [Source] {
      paths.compactMap { path in
        if path.hasPrefix(userPropertyPrefix) {
          return .property(String(path.dropFirst(userPropertyPrefix.count)))
        }
        return path.hasPrefix(parameterPrefix) ? nil : .field(path)
      }
    }
  }

  private static let sources = Sources()

  /// The first of `sources` the bundle holds, as text.
  private static func first(
    _ sources: [Source], in context: Properties,
    properties: some BidirectionalCollection<FirebasePropertyFields>
  ) -> String? {
    for source in sources {
      switch source {
      case .property(let name):
        if let text = properties.last(where: { $0.name == name })?.text { return text }
      case .field(let name):
        if let text = field(name, of: context) { return text }
      }
    }
    return nil
  }

  /// A bundle field the registry names, by its schema name (its key in the context), when the
  /// context holds it as text; `nil` when unset, empty or not text.
  private static func field(_ name: String, of context: Properties) -> String? {
    guard case .string(let text)? = context[name] else { return nil }
    return DeviceIdentity.present(text)
  }
}
