extension PlanCodegen {
  /// A main type the generated files declare: what `tagscope plan codegen` names after writing them.
  public struct DeclaredType: Sendable, Hashable {
    /// The type's name (`ShopPlanScreen`).
    public var name: String
    /// How many tags it has a case for; `nil` for a type that is not a kind of tag.
    public var cases: Int?

    /// A declared type.
    public init(name: String, cases: Int? = nil) {
      self.name = name
      self.cases = cases
    }
  }

  /// The taxonomy, one type per kind of tag with its number of cases, the mappings and, with
  /// the tour, the tour, in the order `files()` declares them (the properties' value types aside).
  public func declaredTypes() -> [DeclaredType] {
    let model = TaxonomyModel(plan: plan, moduleName: options.moduleName)
    var types = [DeclaredType(name: model.taxonomyName)]
    types += model.tagTypes.map { DeclaredType(name: $0.name, cases: $0.cases.count) }
    types.append(DeclaredType(name: model.mappingsName))
    if options.includesTour { types.append(DeclaredType(name: model.tourName)) }
    return types
  }
}
