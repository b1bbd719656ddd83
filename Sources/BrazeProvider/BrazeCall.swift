import AnalyticsHub
import AnalyticsProvidersCore
import Foundation

/// A call of the Braze Swift SDK (`Braze`, `Braze.User`).
///
/// Recorded shape: `method` is the case name; `name` is the event name (`logCustomEvent`), the
/// product ID (`logPurchase`, with `currency`, `price`, `quantity` then the properties), the user
/// ID (`changeUser`) or the attribute key (`setCustomAttribute`, value under `value`).
public enum BrazeCall: ProviderCall, Hashable {
  /// `logCustomEvent(name:properties:)`.
  case logCustomEvent(name: String, properties: Properties)
  /// `logPurchase(productId:currency:price:quantity:properties:)`.
  case logPurchase(productId: String, currency: String, price: Double, quantity: Int, properties: Properties)
  /// `changeUser(userId:)`.
  case changeUser(userId: String)
  /// `user.setCustomAttribute(key:value:)`.
  case setCustomAttribute(key: String, value: PropertyValue)
  /// `user.unsetCustomAttribute(key:)`.
  case unsetCustomAttribute(key: String)
  /// `user.incrementCustomUserAttribute(key:by:)`.
  case incrementCustomUserAttribute(key: String, by: Int)

  public var method: String {
    switch self {
    case .logCustomEvent: return "logCustomEvent"
    case .logPurchase: return "logPurchase"
    case .changeUser: return "changeUser"
    case .setCustomAttribute: return "setCustomAttribute"
    case .unsetCustomAttribute: return "unsetCustomAttribute"
    case .incrementCustomUserAttribute: return "incrementCustomUserAttribute"
    }
  }

  public var name: String? {
    switch self {
    case .logCustomEvent(let name, _): return name
    case .logPurchase(let productId, _, _, _, _): return productId
    case .changeUser(let userId): return userId
    case .setCustomAttribute(let key, _), .unsetCustomAttribute(let key),
      .incrementCustomUserAttribute(let key, _):
      return key
    }
  }

  public var parameters: Properties {
    switch self {
    case .logCustomEvent(_, let properties): return properties
    case .logPurchase(_, let currency, let price, let quantity, let properties):
      let purchase: Properties = [
        "currency": .string(currency), "price": .double(price), "quantity": .int(quantity),
      ]
      return purchase.merging(properties)
    case .setCustomAttribute(_, let value): return ["value": value]
    case .incrementCustomUserAttribute(_, let amount): return ["by": .int(amount)]
    case .changeUser, .unsetCustomAttribute: return [:]
    }
  }
}

/// The Braze Swift SDK's API, for an app to plug the real SDK in.
public protocol BrazeAdapter: SDKAdapter where Call == BrazeCall {
  func logCustomEvent(name: String, properties: Properties)
  func logPurchase(productId: String, currency: String, price: Double, quantity: Int, properties: Properties)
  func changeUser(userId: String)
  func setCustomAttribute(key: String, value: PropertyValue)
  func unsetCustomAttribute(key: String)
  func incrementCustomUserAttribute(key: String, by amount: Int)
}

extension BrazeAdapter {
  public func deliver(_ call: BrazeCall) {
    switch call {
    case .logCustomEvent(let name, let properties): logCustomEvent(name: name, properties: properties)
    case .logPurchase(let productId, let currency, let price, let quantity, let properties):
      logPurchase(
        productId: productId, currency: currency, price: price, quantity: quantity, properties: properties)
    case .changeUser(let userId): changeUser(userId: userId)
    case .setCustomAttribute(let key, let value): setCustomAttribute(key: key, value: value)
    case .unsetCustomAttribute(let key): unsetCustomAttribute(key: key)
    case .incrementCustomUserAttribute(let key, let amount):
      incrementCustomUserAttribute(key: key, by: amount)
    }
  }
}

/// Braze: a provider with its rules attached; engagement tooling, so it defaults to the
/// `marketing` consent category.
public enum Braze {
  /// The default provider identifier.
  public static let id: ProviderID = BrazeRules.providerID

  /// A Braze provider whose calls are checked against ``BrazeRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .marketing,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, BrazeCall>
  ) -> Provider<T> where Adapter.Call == BrazeCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: BrazeRules.ruleCheck(), mapping: mapping)
  }

  /// A timed event as Braze custom events (`onboarding_start`, `onboarding_stop` with `duration`).
  public static func timedEvent<T: Taxonomy>(_ tag: Tag<T>, naming: TimedEventNaming = .snakeCase)
    -> [BrazeCall]
  {
    guard let equivalent = tag.timedEquivalent(naming: naming) else { return [] }
    return [.logCustomEvent(name: equivalent.name, properties: equivalent.properties)]
  }
}
