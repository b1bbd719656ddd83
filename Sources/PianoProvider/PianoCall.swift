import AnalyticsHub
import AnalyticsProvidersCore

/// A call of the Piano Analytics SDK (formerly AT Internet), `PianoAnalytics.shared`.
///
/// Recorded shape: `method` is the case name; `name` is the event name (`sendEvent`:
/// `page.display`, `click.action`…), the user ID (`setUser`, category under `category`), the
/// privacy mode (`privacySetMode`) or the property key (`setProperty`, value under `value`);
/// `parameters` are the event's properties.
public enum PianoCall: ProviderCall, Hashable {
  /// `sendEvent(Event(name, data:))`.
  case sendEvent(name: String, properties: Properties)
  /// `setUser(_:category:enableStorage:)`.
  case setUser(id: String, category: String?)
  /// `deleteUser()`.
  case deleteUser
  /// `privacySetMode(_:)`.
  case privacySetMode(PianoPrivacyMode)
  /// `setProperty(key:value:persistent:)`: a property added to later events.
  case setProperty(key: String, value: PropertyValue, persistent: Bool)

  /// `page.display` with `page` and optional chapters.
  public static func pageDisplay(_ page: String, chapters: [String] = [], _ extra: Properties = [:])
    -> PianoCall
  {
    var properties: Properties = ["page": .string(page)]
    for (index, chapter) in chapters.prefix(3).enumerated() {
      properties["page_chapter\(index + 1)"] = .string(chapter)
    }
    return .sendEvent(name: PianoEvent.pageDisplay, properties: properties.merging(extra))
  }

  /// A `click.*` event with `click` and optional chapters.
  public static func click(
    _ type: PianoClick, _ click: String, chapters: [String] = [], _ extra: Properties = [:]
  )
    -> PianoCall
  {
    var properties: Properties = ["click": .string(click)]
    for (index, chapter) in chapters.prefix(3).enumerated() {
      properties["click_chapter\(index + 1)"] = .string(chapter)
    }
    return .sendEvent(name: type.eventName, properties: properties.merging(extra))
  }

  public var method: String {
    switch self {
    case .sendEvent: return "sendEvent"
    case .setUser: return "setUser"
    case .deleteUser: return "deleteUser"
    case .privacySetMode: return "privacySetMode"
    case .setProperty: return "setProperty"
    }
  }

  public var name: String? {
    switch self {
    case .sendEvent(let name, _): return name
    case .setUser(let id, _): return id
    case .deleteUser: return nil
    case .privacySetMode(let mode): return mode.rawValue
    case .setProperty(let key, _, _): return key
    }
  }

  public var parameters: Properties {
    switch self {
    case .sendEvent(_, let properties): return properties
    case .setUser(_, let category): return category.map { ["category": .string($0)] } ?? [:]
    case .setProperty(_, let value, let persistent): return ["value": value, "persistent": .bool(persistent)]
    case .deleteUser, .privacySetMode: return [:]
    }
  }
}

/// Piano's standard event names.
public enum PianoEvent {
  public static let pageDisplay = "page.display"
  public static let clickAction = "click.action"
  public static let clickNavigation = "click.navigation"
  public static let clickDownload = "click.download"
  public static let clickExit = "click.exit"
}

/// The four standard click events.
public enum PianoClick: String, Sendable, Hashable, CaseIterable {
  case action
  case navigation
  case download
  case exit

  /// `click.action`…
  public var eventName: String { "click." + rawValue }
}

/// Piano's privacy modes.
public enum PianoPrivacyMode: String, Sendable, Hashable, CaseIterable {
  case optin
  case optout
  case exempt
  case noConsent = "no-consent"
  case noStorage = "no-storage"
}

/// The Piano Analytics SDK's API, for an app to plug the real SDK in.
public protocol PianoAdapter: SDKAdapter where Call == PianoCall {
  func sendEvent(name: String, properties: Properties)
  func setUser(id: String, category: String?)
  func deleteUser()
  func privacySetMode(_ mode: PianoPrivacyMode)
  func setProperty(key: String, value: PropertyValue, persistent: Bool)
}

extension PianoAdapter {
  public func deliver(_ call: PianoCall) {
    switch call {
    case .sendEvent(let name, let properties): sendEvent(name: name, properties: properties)
    case .setUser(let id, let category): setUser(id: id, category: category)
    case .deleteUser: deleteUser()
    case .privacySetMode(let mode): privacySetMode(mode)
    case .setProperty(let key, let value, let persistent):
      setProperty(key: key, value: value, persistent: persistent)
    }
  }
}

/// Piano Analytics: a provider with its rules attached.
public enum Piano {
  /// The default provider identifier.
  public static let id: ProviderID = PianoRules.providerID

  /// A Piano provider whose calls are checked against ``PianoRules``.
  public static func provider<T: Taxonomy, Adapter: SDKAdapter>(
    id: ProviderID = id, category: ConsentCategory = .analytics,
    environment: EnvironmentSwitch = EnvironmentSwitch(),
    adapter: Adapter, mapping: @escaping Mapping<T, PianoCall>
  ) -> Provider<T> where Adapter.Call == PianoCall {
    ProviderFactory.make(
      id: id, category: category, environment: environment, adapter: adapter,
      rules: PianoRules.ruleCheck(), mapping: mapping)
  }
}
