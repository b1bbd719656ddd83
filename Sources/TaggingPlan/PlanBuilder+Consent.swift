import AnalyticsHub
import TagscopeVendors

extension PlanLoader {
  /// The keys of the plan's `consent`.
  static let consentKeys = ["default", "categories"]
}

extension PlanLoader.Builder {
  /// The plan's `consent`: `default` (`granted`, the default, or `denied`) and `categories`, each
  /// a provider id or a list of them; `nil` when the key has no value. Provider ids are checked
  /// with ``checkConsentProviders(_:custom:)`` once `customProviders` is known.
  func consent(_ pair: YAMLReader.Pair) throws -> PlanConsent? {
    if pair.value.isNull { return nil }
    var defaultGranted = true
    var categories: [PlanConsent.Category] = []
    for field in try reader.mapping(pair.value, "consent", allowed: PlanLoader.consentKeys) {
      if field.key == "default" {
        let word = try reader.string(field.value, "default of consent")
        guard word == "granted" || word == "denied" else {
          throw reader.error(field.value, "default of consent must be granted or denied, found \"\(word)\"")
        }
        defaultGranted = word == "granted"
        continue
      }
      if field.value.isNull { continue }
      categories = try reader.mapping(field.value, "categories of consent").map { category in
        let what = "consent category \(category.key)"
        let members: [PlanConsent.Member]
        if category.value.isNull {
          members = []
        } else if category.value.kind == .scalar {
          members = [
            PlanConsent.Member(
              id: try reader.string(category.value, what), location: reader.location(category.value))
          ]
        } else {
          members = try reader.sequence(category.value, what).map { item in
            PlanConsent.Member(
              id: try reader.string(item, "each provider of \(what)"), location: reader.location(item))
          }
        }
        return PlanConsent.Category(
          category: ConsentCategory(rawValue: category.key), location: reader.location(category.keyNode),
          providers: members)
      }
    }
    return PlanConsent(
      defaultGranted: defaultGranted, categories: categories, location: reader.location(pair.keyNode))
  }

  /// Every provider a consent category lists must be one `Vendors` knows (or a declared custom
  /// one), and in one category only: a typo would leave its calls unchecked, and two categories
  /// would make its consent ambiguous.
  func checkConsentProviders(_ consent: PlanConsent?, custom: Set<String>) throws {
    guard let consent else { return }
    var seen: [String: (category: ConsentCategory, location: SourceLocation)] = [:]
    for category in consent.categories {
      for member in category.providers {
        let vendor = Vendors.vendor(named: member.id)
        guard vendor != nil || custom.contains(member.id) else {
          let guess = Vendors.suggestion(for: member.id).map { " (did you mean '\($0)'?)" } ?? ""
          throw PlanLoadError(
            file: reader.file, location: member.location,
            message:
              "consent category \(category.category) names unknown provider '\(member.id)'\(guess): Tagscope knows \(Vendors.names.joined(separator: ", ")); declare a custom SDK's id under customProviders: [\(member.id)]"
          )
        }
        let key = vendor?.id.rawValue ?? member.id
        if let first = seen[key] {
          throw PlanLoadError(
            file: reader.file, location: member.location,
            message:
              "provider \(member.id) is in consent category \(category.category) here and in \(first.category) at \(reader.file):\(first.location): a provider has one category"
          )
        }
        seen[key] = (category.category, member.location)
      }
    }
  }
}
