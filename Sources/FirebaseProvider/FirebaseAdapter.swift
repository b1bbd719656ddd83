import AnalyticsHub
import AnalyticsProvidersCore

/// The Firebase Analytics SDK's API, for an app to plug the real SDK in: implement each method
/// with the one `Analytics` call of the same name, and the hub delivers every ``FirebaseCall``.
///
/// ```swift
/// struct FirebaseSDK: FirebaseAnalyticsAdapter {
///   func logEvent(_ name: String, parameters: Properties) {
///     Analytics.logEvent(name, parameters: parameters.foundationDictionary)
///   }
///   func setUserProperty(_ value: String?, forName name: String) {
///     Analytics.setUserProperty(value, forName: name)
///   }
///   func setUserID(_ id: String?) { Analytics.setUserID(id) }
///   func setDefaultEventParameters(_ parameters: Properties) {
///     Analytics.setDefaultEventParameters(parameters.foundationDictionary)
///   }
///   func setAnalyticsCollectionEnabled(_ enabled: Bool) { Analytics.setAnalyticsCollectionEnabled(enabled) }
///   func setConsent(_ consent: FirebaseConsent) { /* Analytics.setConsent([.analyticsStorage: …]) */ }
///   func resetAnalyticsData() { Analytics.resetAnalyticsData() }
/// }
/// ```
public protocol FirebaseAnalyticsAdapter: SDKAdapter where Call == FirebaseCall {
  func logEvent(_ name: String, parameters: Properties)
  func setUserProperty(_ value: String?, forName name: String)
  func setUserID(_ id: String?)
  func setDefaultEventParameters(_ parameters: Properties)
  func setAnalyticsCollectionEnabled(_ enabled: Bool)
  func setConsent(_ consent: FirebaseConsent)
  func resetAnalyticsData()
}

extension FirebaseAnalyticsAdapter {
  public func deliver(_ call: FirebaseCall) {
    switch call {
    case .logEvent(let name, let parameters): logEvent(name, parameters: parameters)
    case .setUserProperty(let value, let name): setUserProperty(value, forName: name)
    case .setUserID(let id): setUserID(id)
    case .setDefaultEventParameters(let parameters): setDefaultEventParameters(parameters)
    case .setAnalyticsCollectionEnabled(let enabled): setAnalyticsCollectionEnabled(enabled)
    case .setConsent(let consent): setConsent(consent)
    case .resetAnalyticsData: resetAnalyticsData()
    }
  }
}
