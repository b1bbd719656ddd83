import TaggingPlan
import TagscopeVendors

/// What the generated mappings say and do of the plan's `consent`: each provider's category, in
/// its doc comment and as the category its `Provider` is registered with (so the hub blocks it as
/// the validator expects), and the default the hub must be configured with.
struct ConsentDocumentation {
  /// The plan's consent; `nil` when it has none (nothing is said or passed).
  let consent: PlanConsent?

  /// `Consent: category analytics (plan line 5); no call once it is withdrawn.` for a provider
  /// the plan's consent lists, a line saying its calls are not checked for one it does not.
  func docLine(provider: String) -> String? {
    guard let consent else { return nil }
    guard let category = consent.category(of: provider) else {
      return
        "Consent: the plan gives it no category (line \(consent.location.line)); its calls are not checked for consent."
    }
    let member = consent.categories.lazy.flatMap(\.providers).first { Self.key($0.id) == Self.key(provider) }
    let line = member?.location.line ?? consent.location.line
    return "Consent: category \(category.rawValue) (plan line \(line)); no call once it is withdrawn."
  }

  /// `category: ConsentCategory(rawValue: "analytics"), ` for a provider the plan's consent lists;
  /// empty otherwise (the provider's own default category).
  func categoryArgument(provider: String) -> String {
    guard let category = consent?.category(of: provider) else { return "" }
    return "category: ConsentCategory(rawValue: \(SwiftLiteral.string(category.rawValue))), "
  }

  /// The lines the providers' doc comment gets: the hub's default the plan expects.
  var defaultLines: [String] {
    guard let consent else { return [] }
    let line = consent.location.line
    return consent.defaultGranted
      ? ["The plan's consent (line \(line)) is granted by default: the hub's `defaultConsent` (true)."]
      : [
        "The plan's consent (line \(line)) is denied by default: create the hub with",
        "`HubConfiguration(defaultConsent: false)` so nothing is sent before a grant.",
      ]
  }

  /// The one id a provider is known by: its vendor's (whichever alias names it), else as written.
  private static func key(_ provider: String) -> String {
    Vendors.vendor(named: provider)?.id.rawValue ?? provider
  }
}
