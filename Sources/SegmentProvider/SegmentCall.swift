import AnalyticsHub
import AnalyticsProvidersCore

/// A call of Segment's Analytics-Swift SDK (`Analytics`).
///
/// Recorded shape: `method` is the case name; `name` is the event name (`track`), the screen
/// title (`screen`, category under `category`), the user ID (`identify`), the group ID (`group`)
/// or the new ID (`alias`); `parameters` are properties or traits. Calls recorded from the HTTP
/// Tracking API may also carry the message's `userId`/`anonymousId`.
public enum SegmentCall: ProviderCall, Hashable {
  /// `track(name:properties:)`.
  case track(name: String, properties: Properties)
  /// `screen(title:category:properties:)`.
  case screen(title: String, category: String?, properties: Properties)
  /// `identify(userId:traits:)`.
  case identify(userId: String, traits: Properties)
  /// `group(groupId:traits:)`.
  case group(groupId: String, traits: Properties)
  /// `alias(newId:)`.
  case alias(newId: String)
  /// `reset()`.
  case reset

  public var method: String {
    switch self {
    case .track: return "track"
    case .screen: return "screen"
    case .identify: return "identify"
    case .group: return "group"
    case .alias: return "alias"
    case .reset: return "reset"
    }
  }

  public var name: String? {
    switch self {
    case .track(let name, _): return name
    case .screen(let title, _, _): return title
    case .identify(let userId, _): return userId
    case .group(let groupId, _): return groupId
    case .alias(let newId): return newId
    case .reset: return nil
    }
  }

  public var parameters: Properties {
    switch self {
    case .track(_, let properties): return properties
    case .screen(_, let category, let properties):
      guard let category else { return properties }
      let screen: Properties = ["category": .string(category)]
      return screen.merging(properties)
    case .identify(_, let traits), .group(_, let traits): return traits
    case .alias, .reset: return [:]
    }
  }
}

/// Segment's Analytics-Swift API, for an app to plug the real SDK in.
public protocol SegmentAdapter: SDKAdapter where Call == SegmentCall {
  func track(name: String, properties: Properties)
  func screen(title: String, category: String?, properties: Properties)
  func identify(userId: String, traits: Properties)
  func group(groupId: String, traits: Properties)
  func alias(newId: String)
  func reset()
}

extension SegmentAdapter {
  public func deliver(_ call: SegmentCall) {
    switch call {
    case .track(let name, let properties): track(name: name, properties: properties)
    case .screen(let title, let category, let properties):
      screen(title: title, category: category, properties: properties)
    case .identify(let userId, let traits): identify(userId: userId, traits: traits)
    case .group(let groupId, let traits): group(groupId: groupId, traits: traits)
    case .alias(let newId): alias(newId: newId)
    case .reset: reset()
    }
  }
}

/// Segment: a provider with its rules attached.
public enum Segment {
  /// The default provider identifier.
  public static let id: ProviderID = SegmentRules.providerID

  /// A Segment provider whose calls are checked against ``SegmentRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, SegmentCall>
  ) -> Provider<T> where Adapter.Call == SegmentCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: SegmentRules.ruleCheck(), mapping: mapping)
  }

  /// A timed event as Segment events (`Onboarding Started`, `Onboarding Completed` with
  /// `duration`); `[]` for any other tag.
  public static func timedEvent<T: Taxonomy>(_ tag: Tag<T>, naming: TimedEventNaming = .titleCase)
    -> [SegmentCall]
  {
    guard let equivalent = tag.timedEquivalent(naming: naming) else { return [] }
    return [.track(name: equivalent.name, properties: equivalent.properties)]
  }
}
