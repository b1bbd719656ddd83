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
    DeviceIdentity(
      deviceID: first(fields.device, in: bundle), app: first(fields.app, in: bundle),
      platform: first(fields.platform, in: bundle), model: first(fields.model, in: bundle),
      userID: first(fields.user, in: bundle), sessionID: first(fields.session, in: bundle))
  }

  /// The first of `paths` the bundle holds, as text (a parameter path is an event's: skipped here).
  private static func first(_ paths: [String], in bundle: Tagscope_Firebase_Bundle) -> String? {
    for path in paths {
      if path.hasPrefix(userPropertyPrefix) {
        let name = path.dropFirst(userPropertyPrefix.count)
        let property = bundle.userProperty.last { $0.name == name }
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
