/// The name part of an Iglu URI: `add_to_cart` for `iglu:com.acme/add_to_cart/jsonschema/1-0-0`.
///
/// `listen` names a Snowplow self-describing call after the schema its event names; people name
/// the event by the schema's name, so the debugger's `call:` terms and a plan's call names match
/// it too.
public enum IgluSchemaName {
  /// The schema name of `uri` (`iglu:vendor/name/format/version`); `nil` for any other text.
  public static func of(_ uri: String) -> String? {
    guard uri.hasPrefix("iglu:") else { return nil }
    let parts = uri.dropFirst(5).split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ !$0.isEmpty }) else { return nil }
    return String(parts[1])
  }
}
