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

    /// A provider name as the check reads it: its category, and the one id (its vendor's, else
    /// as listed) its consent decisions are kept under.
    struct Resolved: Sendable, Hashable {
      var category: ConsentCategory
      var provider: ProviderID
      /// Its place in ``PlanConsent/members``: where a device's ``PlanConsent/grants(_:)`` answer
      /// for it is.
      var index: Int
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
  /// Each provider's category and the one id its decisions are kept under, by its id as written,
  /// its vendor's id and the vendor's aliases.
  private var byProvider: [String: Member.Resolved] = [:]
  /// Each provider the plan lists, once, in plan order (a provider listed twice keeps its first
  /// category).
  private(set) var members: [Member.Resolved] = []

  /// The plan's consent; a provider listed in two categories belongs to the first.
  public init(defaultGranted: Bool, categories: [Category], location: SourceLocation) {
    self.defaultGranted = defaultGranted
    self.categories = categories
    self.location = location
    for category in categories {
      for provider in category.providers {
        let vendor = Vendors.vendor(named: provider.id)
        let names = [provider.id] + (vendor.map { [$0.id.rawValue] + $0.aliases } ?? [])
        let id = vendor?.id ?? ProviderID(rawValue: provider.id)
        guard !members.contains(where: { $0.provider == id }) else {
          for name in names where byProvider[name] == nil {
            byProvider[name] = members.first { $0.provider == id }
          }
          continue
        }
        let resolved = Member.Resolved(category: category.category, provider: id, index: members.count)
        members.append(resolved)
        for name in names where byProvider[name] == nil { byProvider[name] = resolved }
      }
    }
  }

  /// The category of `provider` (an output's provider id), if the plan gives it one.
  public func category(of provider: String) -> ConsentCategory? { byProvider[provider]?.category }

  /// The category of `provider` (an output's provider id, or a decision's, by any of its names)
  /// and the id its decisions are kept under, if the plan gives it a category.
  func resolve(_ provider: String) -> Member.Resolved? { byProvider[provider] }

  /// Whether each of ``members`` has consent under `state`, by its ``Member/Resolved/index``.
  func grants(_ state: ConsentState) -> [Bool] {
    members.map { state.isGranted(provider: $0.provider, category: $0.category) }
  }

  /// Whether the plan names the category or provider a decision is about: the decisions the
  /// validator keeps (any other cannot change a checked provider's consent).
  func concerns(_ scope: ConsentScope) -> Bool {
    switch scope {
    case .category(let category): return categories.contains { $0.category == category }
    case .provider(let id): return byProvider[id.rawValue] != nil
    }
  }

  /// `scope` with a provider named by an alias (Braze's `appboy`) or its vendor's id named by the
  /// id its decisions are kept under, so a decision applies to the provider's calls whatever name
  /// each uses.
  func canonical(_ scope: ConsentScope) -> ConsentScope {
    guard case .provider(let id) = scope, let resolved = byProvider[id.rawValue] else { return scope }
    return .provider(resolved.provider)
  }
}
