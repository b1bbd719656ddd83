import AnalyticsHub
import AnalyticsProvidersCore

/// A PayPal FPTI event (seed 004): a name, a category, an event type (`e`: `ac`, `cl`, `im`,
/// `rd`, `ua`) and properties.
///
/// Recorded shape: `method` is `event`; `name` is the event name; `parameters` start with `e`
/// (the event type code) and `category`, then the properties.
public enum FPTICall: ProviderCall, Hashable {
  /// One FPTI event.
  case event(name: String, category: String, type: EventType, properties: Properties)

  public var method: String { "event" }

  public var name: String? {
    switch self {
    case .event(let name, _, _, _): return name
    }
  }

  public var parameters: Properties {
    switch self {
    case .event(_, let category, let type, let properties):
      let envelope: Properties = ["e": .string(type.rawValue), "category": .string(category)]
      return envelope.merging(properties)
    }
  }
}

/// The tracker API of seed 004 (`PayPalAnalyticsEventTracker.track(_:)`), for an app to plug its
/// FPTI client in.
public protocol FPTIAdapter: SDKAdapter where Call == FPTICall {
  func track(name: String, category: String, eventType: EventType, properties: Properties)
}

extension FPTIAdapter {
  public func deliver(_ call: FPTICall) {
    switch call {
    case .event(let name, let category, let type, let properties):
      track(name: name, category: category, eventType: type, properties: properties)
    }
  }
}

/// PayPal FPTI: a provider with its rules attached.
public enum FPTI {
  /// The default provider identifier.
  public static let id: ProviderID = FPTIRules.providerID

  /// An FPTI provider whose calls are checked against ``FPTIRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, FPTICall>
  ) -> Provider<T> where Adapter.Call == FPTICall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: FPTIRules.ruleCheck(), mapping: mapping)
  }

  /// The tag as an FPTI event with the tag's own event type (or its kind's default: screens are
  /// impressions, user actions clicks, everything else activity).
  public static func event<T: Taxonomy>(
    _ tag: Tag<T>, name: String, category: String, _ properties: Properties? = nil
  )
    -> FPTICall
  {
    .event(name: name, category: category, type: tag.eventType, properties: properties ?? tag.properties)
  }
}
