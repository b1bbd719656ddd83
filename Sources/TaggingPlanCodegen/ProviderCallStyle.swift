import AnalyticsHub
import TagscopeVendors

/// How a provider module's typed calls are built from a planned call: the call type, the
/// namespace whose `provider(…)` attaches its rules, and per SDK method the case that records that
/// method. A provider this does not know, or a planned call none of its cases records (an unknown
/// method, a call without a name), is mapped to ``CallDescription`` instead.
struct ProviderCallStyle {
  /// What a builder gets: the call's name literal, the parameters expression, the value a
  /// one-value call (a user property) sets, and the FPTI envelope.
  struct Parts {
    var name: String?
    var parameters: String
    var value: String
    var eventType: String
    var category: String

    /// The parts by their ``Vendor/CallTemplate`` placeholder.
    var values: [String: String] {
      var values = ["parameters": parameters, "value": value, "eventType": eventType, "category": category]
      values["name"] = name
      return values
    }
  }

  var callType: String
  /// `Firebase`: the namespace with `provider(environment:adapter:mapping:)`; `nil` for a
  /// ``CallDescription`` provider.
  var namespace: String?
  /// The method a call without one gets.
  var defaultMethod: String
  /// Per method, the call expression, or `nil` when the parts do not make one.
  var builders: [String: (Parts) -> String?]

  /// The expression of a call with `method` (or the default), or `nil` when this style cannot
  /// record it.
  func expression(method: String?, parts: Parts) -> String? {
    builders[method ?? defaultMethod].flatMap { $0(parts) }
  }

  /// The style of a provider id, `nil` for one without a module (or `CallDescription`): its
  /// descriptor's ``Vendor/CallStyle``.
  static func known(_ provider: String) -> ProviderCallStyle? {
    guard let style = Vendors.vendor(ProviderID(rawValue: provider))?.callStyle else { return nil }
    var builders: [String: (Parts) -> String?] = [:]
    for template in style.calls {
      builders[template.method] = { parts in template.render(parts.values) }
    }
    return ProviderCallStyle(
      callType: style.callType, namespace: style.namespace, defaultMethod: style.defaultMethod,
      builders: builders)
  }

  /// The parameters of `provider`'s planned calls its call's own arguments carry (FPTI's `e` and
  /// `category`), left out of the properties.
  static func envelopeParameters(_ provider: String) -> [String] {
    Vendors.vendor(ProviderID(rawValue: provider))?.callStyle?.envelopeParameters ?? []
  }

  /// The ``CallDescription`` style: any method, any name.
  static var described: ProviderCallStyle {
    ProviderCallStyle(
      callType: "CallDescription", namespace: nil, defaultMethod: "track", builders: [:])
  }

  /// The ``CallDescription`` expression of a call.
  static func description(method: String?, parts: Parts) -> String {
    let name = parts.name.map { "name: \($0), " } ?? ""
    return
      "CallDescription(method: \(SwiftLiteral.string(method ?? "track")), \(name)parameters: \(parts.parameters))"
  }

  /// FPTI's `EventType` case for an `e` code (`cl` → `.click`).
  static func eventTypeCase(_ code: String) -> String? {
    EventType(rawValue: code).map { ".\($0)" }
  }
}
