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
    var properties: [String: Tagscope_Firebase_UserProperty] = [:]
    for property in bundle.userProperty where propertyNames.contains(property.name) {
      properties[property.name] = property
    }
    return of(bundle, properties: properties)
  }

  /// ``of(_:)`` with the bundle's user properties given apart: `properties` holds, of those
  /// named by ``propertyNames``, the last one of each name (`bundle`'s own are not read).
  static func of(_ bundle: Tagscope_Firebase_Bundle, properties: [String: Tagscope_Firebase_UserProperty])
    -> DeviceIdentity
  {
    func first(_ paths: [String]) -> String? { Self.first(paths, in: bundle, properties: properties) }
    return DeviceIdentity(
      deviceID: first(fields.device), app: first(fields.app), platform: first(fields.platform),
      model: first(fields.model), userID: first(fields.user), sessionID: first(fields.session))
  }

  /// The first of `paths` the bundle holds, as text (a parameter path is an event's: skipped here).
  private static func first(
    _ paths: [String], in bundle: Tagscope_Firebase_Bundle,
    properties: [String: Tagscope_Firebase_UserProperty]
  ) -> String? {
    for path in paths {
      if path.hasPrefix(userPropertyPrefix) {
        let property = properties[String(path.dropFirst(userPropertyPrefix.count))]
        if let text = property.flatMap(text) { return text }
      } else if let text = field(path, of: bundle) {
        return text
      }
    }
    return nil
  }

  /// A bundle field the registry may name, by its schema name; `nil` when unset or empty.
  private static func field(_ name: String, of bundle: Tagscope_Firebase_Bundle) -> String? {
    let value: String?
    switch name {
    case "app_instance_id": value = bundle.hasAppInstanceID ? bundle.appInstanceID : nil
    case "app_id": value = bundle.hasAppID ? bundle.appID : nil
    case "platform": value = bundle.hasPlatform ? bundle.platform : nil
    case "device_model": value = bundle.hasDeviceModel ? bundle.deviceModel : nil
    default: value = nil
    }
    return DeviceIdentity.present(value)
  }

  private static func text(_ property: Tagscope_Firebase_UserProperty) -> String? {
    if property.hasStringValue { return DeviceIdentity.present(property.stringValue) }
    if property.hasIntValue { return String(property.intValue) }
    return nil
  }
}
