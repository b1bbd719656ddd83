import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Mixpanel Swift SDK (`MixpanelInstance`).
///
/// Recorded shape: `method` is the case name (`people.set` for ``peopleSet(_:)``); `name` is the
/// event (`track`, `time`, `clearTimedEvent`) or the distinct ID (`identify`); `parameters` are
/// event, super or profile properties.
public enum MixpanelCall: ProviderCall, Hashable {
  /// `track(event:properties:)`; a running `time(event:)` adds `$duration`.
  case track(event: String, properties: Properties)
  /// `identify(distinctId:)`.
  case identify(distinctId: String)
  /// `people.set(properties:)`.
  case peopleSet(Properties)
  /// `registerSuperProperties(_:)`: properties sent with every later event.
  case registerSuperProperties(Properties)
  /// `unregisterSuperProperty(_:)`.
  case unregisterSuperProperty(String)
  /// `time(event:)`: starts timing the event; the next `track` of it gets `$duration`.
  case time(event: String)
  /// `clearTimedEvent(event:)`.
  case clearTimedEvent(String)
  /// `optOutTracking()` / `optInTracking()`.
  case setOptOut(Bool)
  /// `reset()`.
  case reset

  public var method: String {
    switch self {
    case .track: return "track"
    case .identify: return "identify"
    case .peopleSet: return "people.set"
    case .registerSuperProperties: return "registerSuperProperties"
    case .unregisterSuperProperty: return "unregisterSuperProperty"
    case .time: return "time"
    case .clearTimedEvent: return "clearTimedEvent"
    case .setOptOut(let optOut): return optOut ? "optOutTracking" : "optInTracking"
    case .reset: return "reset"
    }
  }

  public var name: String? {
    switch self {
    case .track(let event, _), .time(let event): return event
    case .identify(let id): return id
    case .unregisterSuperProperty(let name), .clearTimedEvent(let name): return name
    case .peopleSet, .registerSuperProperties, .setOptOut, .reset: return nil
    }
  }

  public var parameters: Properties {
    switch self {
    case .track(_, let properties), .peopleSet(let properties), .registerSuperProperties(let properties):
      return properties
    default: return [:]
    }
  }
}

/// The Mixpanel Swift SDK's API, for an app to plug the real SDK in.
public protocol MixpanelAdapter: SDKAdapter where Call == MixpanelCall {
  func track(event: String, properties: Properties)
  func identify(distinctId: String)
  func peopleSet(properties: Properties)
  func registerSuperProperties(_ properties: Properties)
  func unregisterSuperProperty(_ name: String)
  func time(event: String)
  func clearTimedEvent(event: String)
  func optOutTracking()
  func optInTracking()
  func reset()
}

extension MixpanelAdapter {
  public func deliver(_ call: MixpanelCall) {
    switch call {
    case .track(let event, let properties): track(event: event, properties: properties)
    case .identify(let id): identify(distinctId: id)
    case .peopleSet(let properties): peopleSet(properties: properties)
    case .registerSuperProperties(let properties): registerSuperProperties(properties)
    case .unregisterSuperProperty(let name): unregisterSuperProperty(name)
    case .time(let event): time(event: event)
    case .clearTimedEvent(let event): clearTimedEvent(event: event)
    case .setOptOut(let optOut): if optOut { optOutTracking() } else { optInTracking() }
    case .reset: reset()
    }
  }
}

/// Mixpanel: a provider with its rules attached.
public enum Mixpanel {
  /// The default provider identifier.
  public static let id: ProviderID = MixpanelRules.providerID

  /// A Mixpanel provider whose calls are checked against ``MixpanelRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, MixpanelCall>
  ) -> Provider<T> where Adapter.Call == MixpanelCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: MixpanelRules.ruleCheck(), mapping: mapping)
  }

  /// Mixpanel's own timed events: `time(event:)` on start, `track` on stop (the SDK adds
  /// `$duration`), `clearTimedEvent` on cancel; `[]` for any other tag.
  public static func timedEvent<T: Taxonomy>(
    _ tag: Tag<T>, eventName: (String) -> String = TagNaming.titleCase
  )
    -> [MixpanelCall]
  {
    switch tag {
    case .timedStart(let timed): return [.time(event: eventName(timed.name))]
    case .timedStop(let timed, _): return [.track(event: eventName(timed.name), properties: timed.properties)]
    case .timedCancel(let timed, _): return [.clearTimedEvent(eventName(timed.name))]
    default: return []
    }
  }
}
