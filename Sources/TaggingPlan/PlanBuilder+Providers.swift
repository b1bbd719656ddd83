import TagscopeVendors

extension PlanLoader.Builder {
  /// `customProviders:`: the ids of providers Tagscope does not know (an in-house SDK) that the
  /// plan names on purpose.
  func customProviders(_ node: YAMLNode) throws -> Set<String> {
    if node.isNull { return [] }
    return Set(try reader.strings(node, "customProviders"))
  }

  /// Every provider a plan names (an entry's `providers:`, a catalogue) must be one `Vendors`
  /// knows or one it declares in `customProviders:`: a typo (`amplitdue`) would otherwise leave
  /// that provider unchecked, its items only ever "not seen".
  func checkProviderIDs(
    _ entries: [PlanEntry], _ catalogues: [CallCatalogue], custom: Set<String>
  ) throws {
    let named =
      entries.flatMap { entry in entry.providers.map { ($0.provider, $0.location) } }
      + catalogues.map { ($0.provider, $0.location) }
    for (provider, location) in named
    where Vendors.vendor(named: provider) == nil && !custom.contains(provider) {
      let guess = Vendors.suggestion(for: provider).map { " (did you mean '\($0)'?)" } ?? ""
      throw PlanLoadError(
        file: reader.file, location: location,
        message:
          "unknown provider '\(provider)'\(guess): Tagscope knows \(Vendors.names.joined(separator: ", ")); declare a custom SDK's id under customProviders: [\(provider)]"
      )
    }
  }
}

extension PlanLoader {
  /// Whether a plan may name provider `id` without declaring it under `customProviders:` (an id
  /// or alias of `Vendors`).
  public static func knowsProvider(_ id: String) -> Bool { Vendors.vendor(named: id) != nil }
}
