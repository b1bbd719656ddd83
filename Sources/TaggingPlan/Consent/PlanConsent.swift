import AnalyticsHub
import TagscopeVendors

/// The plan's `consent:`: what applies before any decision, and the providers of each consent
/// category, so the validator can tell a call made after its category was withdrawn.
public struct PlanConsent: Sendable, Hashable {
  /// A provider listed under a category, with its place.
  public struct Member: Sendable, Hashable {
    /// The provider's id as written.
    public var id: String
    /// Where it is in the plan.
    public var location: SourceLocation

    /// A listed provider.
    public init(id: String, location: SourceLocation) {
      self.id = id
      self.location = location
    }
  }

  /// One category and its providers, as the plan lists them.
  public struct Category: Sendable, Hashable {
    /// The category's name (`analytics`, `marketing`…).
    public var category: ConsentCategory
    /// Where its key is in the plan.
    public var location: SourceLocation
    /// Its providers, in plan order.
    public var providers: [Member]

    /// A category.
    public init(category: ConsentCategory, location: SourceLocation, providers: [Member]) {
      self.category = category
      self.location = location
      self.providers = providers
    }
  }

  /// What applies before any decision: `true` (`default: granted`, opt-out) or `false`
  /// (`default: denied`, opt-in as under GDPR).
  public var defaultGranted: Bool
  /// The categories, in plan order.
  public var categories: [Category]
  /// Where the `consent` key is.
  public var location: SourceLocation
  /// Each provider's category, by its id as written, its vendor's id and the vendor's aliases.
  private var byProvider: [String: ConsentCategory] = [:]

  /// The plan's consent; a provider listed in two categories belongs to the first.
  public init(defaultGranted: Bool, categories: [Category], location: SourceLocation) {
    self.defaultGranted = defaultGranted
    self.categories = categories
    self.location = location
    for category in categories {
      for provider in category.providers {
        let vendor = Vendors.vendor(named: provider.id)
        let names = [provider.id] + (vendor.map { [$0.id.rawValue] + $0.aliases } ?? [])
        for name in names where byProvider[name] == nil { byProvider[name] = category.category }
      }
    }
  }

  /// The category of `provider` (an output's provider id), if the plan gives it one.
  public func category(of provider: String) -> ConsentCategory? { byProvider[provider] }

  /// Whether the plan names the category or provider a decision is about: the decisions the
  /// validator keeps (any other cannot change a checked provider's consent).
  func concerns(_ scope: ConsentScope) -> Bool {
    switch scope {
    case .category(let category): return categories.contains { $0.category == category }
    case .provider(let id): return byProvider[id.rawValue] != nil
    }
  }
}
