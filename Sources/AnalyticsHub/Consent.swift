/// A consent category, as GDPR consent banners group purposes.
public struct ConsentCategory: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral,
  CustomStringConvertible
{
  public var rawValue: String
  public init(rawValue: String) { self.rawValue = rawValue }
  public init(stringLiteral value: String) { rawValue = value }
  public var description: String { rawValue }

  /// Audience measurement (Firebase, Amplitude, Piano…).
  public static let analytics: ConsentCategory = "analytics"
  /// Marketing and engagement (Braze, Batch…).
  public static let marketing: ConsentCategory = "marketing"
  /// Advertising and attribution.
  public static let advertising: ConsentCategory = "advertising"
  /// Personalisation.
  public static let personalization: ConsentCategory = "personalization"
  /// Strictly necessary measurement that needs no opt-in.
  public static let essential: ConsentCategory = "essential"
}

/// What a consent decision applies to.
public enum ConsentScope: Sendable, Hashable {
  /// Every provider in a category.
  case category(ConsentCategory)
  /// One provider, overriding its category's decision.
  case provider(ProviderID)

  /// `category:analytics` or `provider:braze`: the scope as recorded.
  public var label: String {
    switch self {
    case .category(let category): return "category:\(category.rawValue)"
    case .provider(let id): return "provider:\(id.rawValue)"
    }
  }

  /// The scope a recorded ``label`` names; `nil` for another word or an empty name.
  public init?(label: String) {
    if label.hasPrefix("category:"), label.count > 9 {
      self = .category(ConsentCategory(rawValue: String(label.dropFirst(9))))
    } else if label.hasPrefix("provider:"), label.count > 9 {
      self = .provider(ProviderID(rawValue: String(label.dropFirst(9))))
    } else {
      return nil
    }
  }
}

/// A consent decision as dispatched to providers and observers.
public struct ConsentChange: Sendable, Hashable {
  /// What the decision applies to.
  public var scope: ConsentScope
  /// Opt-in (`true`) or opt-out (`false`).
  public var granted: Bool

  /// A decision.
  public init(scope: ConsentScope, granted: Bool) {
    self.scope = scope
    self.granted = granted
  }

  /// The decision as properties (`scope`, `granted`), the way it is recorded.
  public var properties: Properties {
    ["scope": .string(scope.label), "granted": .bool(granted)]
  }

  /// The decision recorded as `properties` (``properties``); `nil` when `scope` or `granted` is
  /// missing or malformed.
  public init?(properties: Properties) {
    guard case .string(let label)? = properties["scope"], let scope = ConsentScope(label: label),
      case .bool(let granted)? = properties["granted"]
    else { return nil }
    self.init(scope: scope, granted: granted)
  }
}

/// The consent that applies where nothing was decided (``HubConfiguration/defaultConsent``), as
/// the hub tells an observer when it is attached and the default is opt-in: a `consent` dispatch
/// without a scope, its properties `default` and `atAttach` (`{"default":false,"atAttach":true}`),
/// so a recording knows the hub withholds consent until a grant, whatever a plan says. The opt-out
/// default (granted) is not told: a recording without it reads as before it was recorded.
public struct ConsentDefault: Sendable, Hashable {
  /// Opt-out regime (`true`) or opt-in (`false`).
  public var granted: Bool

  /// The default `granted`.
  public init(granted: Bool) { self.granted = granted }

  /// The default as recorded (`default`).
  public var properties: Properties { ["default": .bool(granted)] }

  /// The default recorded as `properties`; `nil` for a decision (a `scope`) or without a boolean
  /// `default`.
  public init?(properties: Properties) {
    guard properties["scope"] == nil, case .bool(let granted)? = properties["default"] else { return nil }
    self.init(granted: granted)
  }
}

/// The consent decisions known to the hub and how they resolve for a provider.
public struct ConsentState: Sendable, Hashable {
  /// What applies when nothing was decided: `true` for opt-out regimes, `false` for opt-in (GDPR).
  public var defaultGranted: Bool
  /// Decisions per category.
  public var categories: [ConsentCategory: Bool]
  /// Decisions per provider; they override the category's.
  public var providers: [ProviderID: Bool]

  /// Consent with a default and no decisions yet.
  public init(
    defaultGranted: Bool, categories: [ConsentCategory: Bool] = [:], providers: [ProviderID: Bool] = [:]
  ) {
    self.defaultGranted = defaultGranted
    self.categories = categories
    self.providers = providers
  }

  /// Whether a provider in `category` may receive tags. `essential` is always granted.
  public func isGranted(provider: ProviderID, category: ConsentCategory) -> Bool {
    if let decision = providers[provider] { return decision }
    if category == .essential { return true }
    return categories[category] ?? defaultGranted
  }

  /// Every decision held, categories then providers, each by name.
  public var decisions: [ConsentChange] {
    categories.sorted { $0.key.rawValue < $1.key.rawValue }.map {
      ConsentChange(scope: .category($0.key), granted: $0.value)
    }
      + providers.sorted { $0.key.rawValue < $1.key.rawValue }.map {
        ConsentChange(scope: .provider($0.key), granted: $0.value)
      }
  }

  /// Records a decision: a provider's overrides its category's.
  public mutating func apply(_ change: ConsentChange) {
    switch change.scope {
    case .category(let category): categories[category] = change.granted
    case .provider(let id): providers[id] = change.granted
    }
  }
}
