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
    var properties: [String: FirebasePropertyFields] = [:]
    for property in bundle.userProperty where propertyNames.contains(property.name) {
      properties[property.name] = FirebasePropertyFields(property)
    }
    return of(context: FirebaseUploadRecords.context(bundle), properties: properties)
  }

  /// ``of(_:)`` from the bundle's context (``FirebaseUploadRecords/context(_:)``) with its user
  /// properties given apart: `properties` holds, of those named by ``propertyNames``, the last one
  /// of each name.
  static func of(context: Properties, properties: [String: FirebasePropertyFields]) -> DeviceIdentity {
    func first(_ paths: [String]) -> String? { Self.first(paths, in: context, properties: properties) }
    return DeviceIdentity(
      deviceID: first(fields.device), app: first(fields.app), platform: first(fields.platform),
      model: first(fields.model), userID: first(fields.user), sessionID: first(fields.session))
  }

  /// The first of `paths` the bundle holds, as text (a parameter path is an event's: skipped here).
  private static func first(
    _ paths: [String], in context: Properties, properties: [String: FirebasePropertyFields]
  ) -> String? {
    for path in paths {
      if path.hasPrefix(userPropertyPrefix) {
        let property = properties[String(path.dropFirst(userPropertyPrefix.count))]
        if let text = property?.text { return text }
      } else if let text = field(path, of: context) {
        return text
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
