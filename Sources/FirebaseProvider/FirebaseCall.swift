import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Firebase Analytics SDK (GA4 for apps), as `Analytics` exposes it.
///
/// Recorded shape (``CallDescription``): `method` is the case name; `name` is the event name
/// (`logEvent`), the user property name (`setUserProperty`, value under `value`) or the user ID
/// (`setUserID`); `parameters` are the event or default parameters, `enabled` for
/// `setAnalyticsCollectionEnabled`, and one key per consent type for `setConsent`.
public enum FirebaseCall: ProviderCall, Hashable {
  /// `Analytics.logEvent(_:parameters:)`.
  case logEvent(String, Properties)
  /// `Analytics.setUserProperty(_:forName:)`; `nil` clears the property.
  case setUserProperty(String?, forName: String)
  /// `Analytics.setUserID(_:)`; `nil` clears it (logout).
  case setUserID(String?)
  /// `Analytics.setDefaultEventParameters(_:)`: parameters added to every later event.
  case setDefaultEventParameters(Properties)
  /// `Analytics.setAnalyticsCollectionEnabled(_:)`.
  case setAnalyticsCollectionEnabled(Bool)
  /// `Analytics.setConsent(_:)` (Consent Mode v2).
  case setConsent(FirebaseConsent)
  /// `Analytics.resetAnalyticsData()`: clears the app instance ID and all data.
  case resetAnalyticsData

  /// `logEvent("screen_view", [screen_name, screen_class])`, the GA4 screen view.
  public static func screenView(name: String, screenClass: String? = nil, _ extra: Properties = [:])
    -> FirebaseCall
  {
    var parameters: Properties = ["screen_name": .string(name)]
    if let screenClass { parameters["screen_class"] = .string(screenClass) }
    return .logEvent("screen_view", parameters.merging(extra))
  }

  public var method: String {
    switch self {
    case .logEvent: return "logEvent"
    case .setUserProperty: return "setUserProperty"
    case .setUserID: return "setUserID"
    case .setDefaultEventParameters: return "setDefaultEventParameters"
    case .setAnalyticsCollectionEnabled: return "setAnalyticsCollectionEnabled"
    case .setConsent: return "setConsent"
    case .resetAnalyticsData: return "resetAnalyticsData"
    }
  }

  public var name: String? {
    switch self {
    case .logEvent(let name, _): return name
    case .setUserProperty(_, let name): return name
    case .setUserID(let id): return id
    default: return nil
    }
  }

  public var parameters: Properties {
    switch self {
    case .logEvent(_, let parameters), .setDefaultEventParameters(let parameters): return parameters
    case .setUserProperty(let value, _): return ["value": value.map(PropertyValue.string) ?? .null]
    case .setAnalyticsCollectionEnabled(let enabled): return ["enabled": .bool(enabled)]
    case .setConsent(let consent): return consent.properties
    case .setUserID, .resetAnalyticsData: return [:]
    }
  }
}

/// Firebase Consent Mode v2 decisions; `nil` leaves a type unchanged.
public struct FirebaseConsent: Sendable, Hashable {
  /// `granted` or `denied`.
  public enum Status: String, Sendable, Hashable {
    case granted
    case denied
  }

  public var analyticsStorage: Status?
  public var adStorage: Status?
  public var adUserData: Status?
  public var adPersonalization: Status?

  /// Consent decisions.
  public init(
    analyticsStorage: Status? = nil, adStorage: Status? = nil, adUserData: Status? = nil,
    adPersonalization: Status? = nil
  ) {
    self.analyticsStorage = analyticsStorage
    self.adStorage = adStorage
    self.adUserData = adUserData
    self.adPersonalization = adPersonalization
  }

  /// The decisions keyed by Firebase's consent type names (`analytics_storage`…).
  public var properties: Properties {
    var properties: Properties = [:]
    if let analyticsStorage { properties["analytics_storage"] = .string(analyticsStorage.rawValue) }
    if let adStorage { properties["ad_storage"] = .string(adStorage.rawValue) }
    if let adUserData { properties["ad_user_data"] = .string(adUserData.rawValue) }
    if let adPersonalization { properties["ad_personalization"] = .string(adPersonalization.rawValue) }
    return properties
  }
}
