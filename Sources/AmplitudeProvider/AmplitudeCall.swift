import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Amplitude Swift SDK (`Amplitude`).
///
/// Recorded shape: `method` is the case name; `name` is the event type (`track`), the user or
/// device ID (`setUserId`, `setDeviceId`) or the group type (`setGroup`, group name under
/// `groupName`); `parameters` are the event properties or user properties.
public enum AmplitudeCall: ProviderCall, Hashable {
  /// `track(eventType:eventProperties:)`.
  case track(eventType: String, eventProperties: Properties)
  /// `identify(userProperties:)`: sets user properties.
  case identify(userProperties: Properties)
  /// `setUserId(userId:)`; `nil` logs out.
  case setUserId(String?)
  /// `setDeviceId(deviceId:)`.
  case setDeviceId(String)
  /// `setGroup(groupType:groupName:)`.
  case setGroup(groupType: String, groupName: String)
  /// `revenue(revenue:)` with a product, a price and a quantity.
  case revenue(productId: String, price: Double, quantity: Int)
  /// `optOut = …`.
  case setOptOut(Bool)
  /// `reset()`: clears the user ID and regenerates the device ID.
  case reset

  public var method: String {
    switch self {
    case .track: return "track"
    case .identify: return "identify"
    case .setUserId: return "setUserId"
    case .setDeviceId: return "setDeviceId"
    case .setGroup: return "setGroup"
    case .revenue: return "revenue"
    case .setOptOut: return "setOptOut"
    case .reset: return "reset"
    }
  }

  public var name: String? {
    switch self {
    case .track(let eventType, _): return eventType
    case .setUserId(let id): return id
    case .setDeviceId(let id): return id
    case .setGroup(let type, _): return type
    case .revenue(let productId, _, _): return productId
    case .identify, .setOptOut, .reset: return nil
    }
  }

  public var parameters: Properties {
    switch self {
    case .track(_, let properties): return properties
    case .identify(let properties): return properties
    case .setGroup(_, let groupName): return ["groupName": .string(groupName)]
    case .revenue(_, let price, let quantity): return ["price": .double(price), "quantity": .int(quantity)]
    case .setOptOut(let optOut): return ["optOut": .bool(optOut)]
    case .setUserId, .setDeviceId, .reset: return [:]
    }
  }
}

/// The Amplitude Swift SDK's API, for an app to plug the real SDK in.
///
/// ```swift
/// struct AmplitudeSDK: AmplitudeAdapter, @unchecked Sendable {  // the SDK's client is thread-safe
///   let amplitude: AmplitudeSwift.Amplitude  // plain `Amplitude` is AnalyticsProviders' namespace
///   func track(eventType: String, eventProperties: Properties) {
///     amplitude.track(eventType: eventType, eventProperties: eventProperties.foundationDictionary)
///   }
///   func identify(userProperties: Properties) {
///     amplitude.identify(userProperties: userProperties.foundationDictionary)
///   }
///   func setUserId(userId: String?) { amplitude.setUserId(userId: userId) }
///   func setDeviceId(deviceId: String) { amplitude.setDeviceId(deviceId: deviceId) }
///   func setGroup(groupType: String, groupName: String) {
///     amplitude.setGroup(groupType: groupType, groupName: groupName)
///   }
///   func revenue(productId: String, price: Double, quantity: Int) {
///     let revenue = Revenue()
///     revenue.productId = productId
///     revenue.price = price
///     revenue.quantity = quantity
///     amplitude.revenue(revenue: revenue)
///   }
///   func setOptOut(_ optOut: Bool) { amplitude.optOut = optOut }
///   func reset() { amplitude.reset() }
/// }
/// ```
public protocol AmplitudeAdapter: SDKAdapter where Call == AmplitudeCall {
  func track(eventType: String, eventProperties: Properties)
  func identify(userProperties: Properties)
  func setUserId(userId: String?)
  func setDeviceId(deviceId: String)
  func setGroup(groupType: String, groupName: String)
  func revenue(productId: String, price: Double, quantity: Int)
  func setOptOut(_ optOut: Bool)
  func reset()
}

extension AmplitudeAdapter {
  public func deliver(_ call: AmplitudeCall) {
    switch call {
    case .track(let eventType, let properties): track(eventType: eventType, eventProperties: properties)
    case .identify(let properties): identify(userProperties: properties)
    case .setUserId(let id): setUserId(userId: id)
    case .setDeviceId(let id): setDeviceId(deviceId: id)
    case .setGroup(let type, let name): setGroup(groupType: type, groupName: name)
    case .revenue(let productId, let price, let quantity):
      revenue(productId: productId, price: price, quantity: quantity)
    case .setOptOut(let optOut): setOptOut(optOut)
    case .reset: reset()
    }
  }
}

/// Amplitude: a provider with its rules attached.
public enum Amplitude {
  /// The default provider identifier.
  public static let id: ProviderID = AmplitudeRules.providerID

  /// An Amplitude provider whose calls are checked against ``AmplitudeRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, AmplitudeCall>
  ) -> Provider<T> where Adapter.Call == AmplitudeCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: AmplitudeRules.ruleCheck(), mapping: mapping)
  }

  /// A timed event as Amplitude events: `Onboarding Started`, then `Onboarding Completed` with
  /// `duration` (Amplitude has no timed events); `[]` for any other tag.
  public static func timedEvent<T: Taxonomy>(_ tag: Tag<T>, naming: TimedEventNaming = .titleCase)
    -> [AmplitudeCall]
  {
    guard let equivalent = tag.timedEquivalent(naming: naming) else { return [] }
    return [.track(eventType: equivalent.name, eventProperties: equivalent.properties)]
  }
}
