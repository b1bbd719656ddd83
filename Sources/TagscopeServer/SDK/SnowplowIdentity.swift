import AnalyticsHub
import TagscopeVendors

extension SnowplowEndpoint {
  /// Where a tracker payload names its sender (``Vendor/snowplow``'s identity fields): its fields,
  /// and by name the data of its contexts (`client_session`, `mobile_context`).
  static let identityReader = IdentityReader(Vendor.snowplow, "payload")

  /// Who sent a Snowplow tracker payload.
  static func identity(field: (String) -> String?, contexts: PropertyValue?) -> DeviceIdentity {
    identityReader.identity { name in
      field(name).map(PropertyValue.string) ?? .object(context(named: name, in: contexts))
    }
  }

  /// The data of the first context whose schema is `iglu:<vendor>/<name>/jsonschema/<version>`.
  static func context(named name: String, in contexts: PropertyValue?) -> Properties {
    for entry in Payload.array(Payload.object(contexts)["data"]) ?? [] {
      let context = Payload.object(entry)
      if let schema = Payload.string(context["schema"]), schemaName(schema) == name {
        return Payload.object(context["data"])
      }
    }
    return [:]
  }
}
