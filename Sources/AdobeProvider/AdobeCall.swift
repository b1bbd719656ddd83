import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Adobe Experience Platform Mobile SDK for Adobe Analytics (`MobileCore`,
/// `Identity`).
///
/// Recorded shape: `method` is the case name; `name` is the state or action (`trackState`,
/// `trackAction`), the privacy status (`setPrivacyStatus`) or the identifier type
/// (`syncIdentifier`, identifier under `identifier`); `parameters` are the context data.
public enum AdobeCall: ProviderCall, Hashable {
  /// `MobileCore.track(state:data:)`: a screen view (page view in reports).
  case trackState(String, contextData: Properties)
  /// `MobileCore.track(action:data:)`: an action (custom link in reports).
  case trackAction(String, contextData: Properties)
  /// `MobileCore.setPrivacyStatus(_:)`.
  case setPrivacyStatus(AdobePrivacyStatus)
  /// `Identity.syncIdentifier(identifierType:identifier:authenticationState:)`.
  case syncIdentifier(type: String, identifier: String, authenticated: Bool)

  public var method: String {
    switch self {
    case .trackState: return "trackState"
    case .trackAction: return "trackAction"
    case .setPrivacyStatus: return "setPrivacyStatus"
    case .syncIdentifier: return "syncIdentifier"
    }
  }

  public var name: String? {
    switch self {
    case .trackState(let state, _): return state
    case .trackAction(let action, _): return action
    case .setPrivacyStatus(let status): return status.rawValue
    case .syncIdentifier(let type, _, _): return type
    }
  }

  public var parameters: Properties {
    switch self {
    case .trackState(_, let data), .trackAction(_, let data): return data
    case .setPrivacyStatus: return [:]
    case .syncIdentifier(_, let identifier, let authenticated):
      return ["identifier": .string(identifier), "authenticated": .bool(authenticated)]
    }
  }
}

/// Adobe's privacy statuses.
public enum AdobePrivacyStatus: String, Sendable, Hashable, CaseIterable {
  case optedIn
  case optedOut
  case unknown
}

/// The Adobe mobile SDK's API, for an app to plug the real SDK in. Context data values reach the
/// SDK as strings (`[String: String]`), the form Analytics stores them in.
public protocol AdobeAdapter: SDKAdapter where Call == AdobeCall {
  func trackState(_ state: String, data: [String: String])
  func trackAction(_ action: String, data: [String: String])
  func setPrivacyStatus(_ status: AdobePrivacyStatus)
  func syncIdentifier(type: String, identifier: String, authenticated: Bool)
}

extension AdobeAdapter {
  public func deliver(_ call: AdobeCall) {
    switch call {
    case .trackState(let state, let data): trackState(state, data: Adobe.contextData(data))
    case .trackAction(let action, let data): trackAction(action, data: Adobe.contextData(data))
    case .setPrivacyStatus(let status): setPrivacyStatus(status)
    case .syncIdentifier(let type, let identifier, let authenticated):
      syncIdentifier(type: type, identifier: identifier, authenticated: authenticated)
    }
  }
}

/// Adobe Analytics (mobile): a provider with its rules attached.
public enum Adobe {
  /// The default provider identifier.
  public static let id: ProviderID = AdobeRules.providerID

  /// An Adobe provider whose calls are checked against ``AdobeRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, AdobeCall>
  ) -> Provider<T> where Adapter.Call == AdobeCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: AdobeRules.ruleCheck(), mapping: mapping)
  }

  /// Context data as the SDK takes it: string values (`null` left out).
  public static func contextData(_ properties: Properties) -> [String: String] {
    var data: [String: String] = [:]
    for (key, value) in properties { if let text = value.sdkString { data[key] = text } }
    return data
  }
}
