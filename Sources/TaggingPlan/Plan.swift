/// One planned tag: its section and name, property constraints, the screens it may happen on,
/// what each provider must receive, and the severity of its violations.
public struct PlanEntry: Sendable, Hashable {
  public var section: PlanSection
  public var name: String
  /// Where the entry's key is in the plan.
  public var location: SourceLocation
  public var severity: Severity
  /// Property constraints; `nil` when the entry has no `properties` key (properties unchecked). An
  /// empty list means the tag carries no property.
  public var properties: [PropertyRule]?
  /// Where the `properties` key is, for `unexpected-property` messages.
  public var propertiesLocation: SourceLocation?
  /// The only screens the tag may happen on; `nil` for any.
  public var screens: [String]?
  /// Where the `screens` key is.
  public var screensLocation: SourceLocation?
  /// Per provider expectations, in plan order.
  public var providers: [ProviderPlan]
  /// The entry's `description`, not checked (generated code's documentation).
  public var description: String?
  /// Its journey rules (`after`, `once`, `duplicateWithin`).
  public var journey = EntryJourneyRules()

  /// An entry.
  public init(
    section: PlanSection, name: String, location: SourceLocation, severity: Severity = .error,
    properties: [PropertyRule]? = nil, propertiesLocation: SourceLocation? = nil, screens: [String]? = nil,
    screensLocation: SourceLocation? = nil, providers: [ProviderPlan] = []
  ) {
    self.section = section
    self.name = name
    self.location = location
    self.severity = severity
    self.properties = properties
    self.propertiesLocation = propertiesLocation
    self.screens = screens
    self.screensLocation = screensLocation
    self.providers = providers
  }

  /// `action playPodcast`: the entry as coverage and reports name it.
  public var label: String { "\(section.noun) \(name)" }
}

/// A loaded tagging plan: the QA document saying which tag must reach which provider with which
/// parameters. Build one with ``PlanLoader``.
public struct Plan: Sendable, Hashable {
  /// The plan's name (`plan:`).
  public var name: String
  /// The plan's version (`version:`), as written.
  public var version: String?
  /// The file it was loaded from (for messages).
  public var file: String
  /// The plan's `description`, not checked.
  public var description: String?
  /// The plan's `privacy`: whether values are scanned for personal data, the kinds allowed everywhere.
  public var privacy = PlanPrivacy()
  /// The plan's `consent`: the providers of each consent category, checked against the
  /// recording's consent decisions; `nil` when the plan has none.
  public var consent: PlanConsent?
  /// Severity of `unplanned-tag` violations (`unplanned:`, error by default).
  public var unplannedSeverity: Severity
  /// The sections present in the plan (a timed record is only `unplanned-tag` when `timed` is).
  public var sections: Set<PlanSection>
  /// Entries in plan order.
  public let entries: [PlanEntry]
  /// The providers' call catalogues (`catalogues:`), in plan order.
  public let catalogues: [CallCatalogue]
  /// The funnels (`funnels:`), in plan order.
  public let funnels: [Funnel]
  /// Every coverage item, derived from the entries.
  public let coverageItems: [CoverageItem]
  let index: [[String: Int]]
  let providerItems: [[ProviderCoverageIndex]]
  let tagItems: [Int]
  /// The position in `catalogues` of each provider's catalogue.
  let catalogueIndex: [String: Int]
  /// Per catalogue, the coverage item of each entry (in ``CallCatalogue/entries`` order).
  let catalogueItems: [[Int]]
  /// The journey rules resolved to entries.
  let journeys: JourneyIndex

  /// A plan from its entries; entry names must be unique within a section. Funnel steps and
  /// `after` name entries (any section).
  public init(
    name: String, version: String? = nil, file: String = "plan", unplannedSeverity: Severity = .error,
    sections: Set<PlanSection>, entries: [PlanEntry], catalogues: [CallCatalogue] = [], funnels: [Funnel] = []
  ) {
    self.name = name
    self.version = version
    self.file = file
    self.unplannedSeverity = unplannedSeverity
    self.sections = sections.union(entries.map(\.section))
    self.entries = entries
    var index = [[String: Int]](repeating: [:], count: PlanSection.allCases.count)
    for (position, entry) in entries.enumerated() { index[entry.section.rawValue][entry.name] = position }
    self.index = index
    self.catalogues = catalogues
    var built = CoverageItem.build(entries: entries)
    providerItems = built.providers
    tagItems = built.tags
    var catalogueIndex: [String: Int] = [:]
    var catalogueItems: [[Int]] = []
    for (position, catalogue) in catalogues.enumerated() {
      catalogueIndex[catalogue.provider] = catalogueIndex[catalogue.provider] ?? position
      catalogueItems.append(
        catalogue.entries.map { call in
          built.items.append(CoverageItem(catalogue: catalogue.provider, call: call))
          return built.items.count - 1
        })
    }
    self.catalogueIndex = catalogueIndex
    self.catalogueItems = catalogueItems
    self.funnels = funnels
    journeys = JourneyIndex(entries: entries, funnels: funnels, firstFunnelItem: built.items.count)
    built.items += funnels.map(CoverageItem.init(funnel:))
    coverageItems = built.items
  }

  /// The catalogue of `provider`'s calls, if the plan has one.
  public func catalogue(for provider: String) -> CallCatalogue? {
    catalogueIndex[provider].map { catalogues[$0] }
  }

  /// The entry for a tag, if planned.
  public func entry(section: PlanSection, name: String) -> PlanEntry? {
    entryIndex(section: section, name: name).map { entries[$0] }
  }

  func entryIndex(section: PlanSection, name: String) -> Int? {
    index[section.rawValue][name]
  }

  /// Whether the plan has journey rules (`after`, `once`, `duplicateWithin`, `funnels`): each
  /// record is then compared with earlier ones of its device.
  public var hasJourneys: Bool { journeys.isActive }

  /// `Podcasts v3`.
  public var title: String { version.map { "\(name) v\($0)" } ?? name }
}
