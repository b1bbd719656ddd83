/// One line of the coverage checklist: a planned tag, a planned (tag, screen, provider)
/// expectation, an entry of a provider's call catalogue, or a funnel (`funnels:`).
public struct CoverageItem: Sendable, Hashable {
  /// The tag's section; `nil` for a catalogue entry.
  public var section: PlanSection?
  /// The tag's name; for a catalogue entry, its call name (or its method, for a `methods` entry).
  public var tag: String
  /// For a catalogue entry matched by method alone: that method.
  public var method: String?
  /// The screen the expectation is for; `nil` for the tag itself or for any screen.
  public var screen: String?
  /// The provider; `nil` for the tag itself.
  public var provider: String?
  /// Where the plan states it.
  public var location: SourceLocation
  /// For a funnel: its first step's tag.
  public var funnelStart: String?

  /// An item.
  public init(
    section: PlanSection, tag: String, screen: String? = nil, provider: String? = nil,
    location: SourceLocation
  ) {
    self.section = section
    self.tag = tag
    self.screen = screen
    self.provider = provider
    self.location = location
  }

  /// The item of a catalogue entry of `provider`'s calls.
  public init(catalogue provider: String, call: CatalogueCall) {
    section = nil
    tag = call.name ?? call.method ?? ""
    method = call.name == nil ? call.method : nil
    self.provider = provider
    location = call.location
  }

  /// The item of a funnel: passed when a session reached its last step, failing when one
  /// dropped it or broke its order.
  public init(funnel: Funnel) {
    section = nil
    tag = funnel.name
    funnelStart = funnel.steps.first?.tag ?? ""
    location = funnel.location
  }

  /// Whether it is an entry of a provider's call catalogue.
  public var isCatalogueEntry: Bool { section == nil && funnelStart == nil }

  /// Whether it is a funnel.
  public var isFunnel: Bool { funnelStart != nil }

  /// `action`, `screen`…, `call` (a name entry) or `method` (a method entry) of a catalogue, or
  /// `funnel`.
  public var noun: String {
    section?.noun ?? (funnelStart != nil ? "funnel" : method == nil ? "call" : "method")
  }

  /// The plan's key for its part (`actions`, `catalogues`, `funnels`).
  public var sectionKey: String { section?.key ?? (funnelStart != nil ? "funnels" : "catalogues") }

  /// The debugger's filter listing the records that cover this item: its kind, name, screen and
  /// provider (`kind:action name:playPodcast screen:favorites provider:firebase`), or for a
  /// catalogue entry its provider and call (`provider:segment call:"Order Completed"`).
  public var debuggerFilter: String {
    let quote = { (value: String) in value.contains(" ") ? "\"\(value)\"" : value }
    if let funnelStart { return "name:" + quote(funnelStart) }
    guard let section else {
      // A catalogue entry: the records whose provider got a call of that name (or method).
      return "provider:\(quote(provider ?? "")) call:\(quote(tag))"
    }
    var terms = ["kind:\(section.noun)", "name:" + quote(tag)]
    if let screen { terms.append("screen:" + quote(screen)) }
    if let provider { terms.append("provider:" + quote(provider)) }
    return terms.joined(separator: " ")
  }

  /// `action playPodcast`, `action playPodcast on favorites: firebase`, `screen podcasts: firebase`;
  /// for a catalogue entry `segment call Order Completed` or `segment method identify`; for a
  /// funnel `funnel checkout`.
  public var id: String {
    if funnelStart != nil { return "funnel \(tag)" }
    guard section != nil else { return "\(provider ?? "") \(noun) \(tag)" }
    var text = "\(noun) \(tag)"
    if let screen { text += " on \(screen)" }
    if let provider { text += ": \(provider)" }
    return text
  }

  /// Builds the items of `entries`: per entry its tag item, then one item per provider and screen
  /// (the screens of its conditions, or the entry's `screens`, or any screen).
  static func build(entries: [PlanEntry]) -> (
    items: [CoverageItem], tags: [Int], providers: [[ProviderCoverageIndex]]
  ) {
    var items: [CoverageItem] = []
    var tags: [Int] = []
    var providers: [[ProviderCoverageIndex]] = []
    for entry in entries {
      tags.append(items.count)
      items.append(CoverageItem(section: entry.section, tag: entry.name, location: entry.location))
      var indexes: [ProviderCoverageIndex] = []
      for plan in entry.providers {
        var screens: [(String?, SourceLocation)] = []
        func add(_ screen: String?, _ location: SourceLocation) {
          if !screens.contains(where: { $0.0 == screen }) { screens.append((screen, location)) }
        }
        for call in plan.calls {
          if let conditional = call.condition?.screens {
            for screen in conditional { add(screen, call.location) }
          } else if let entryScreens = entry.screens {
            for screen in entryScreens { add(screen, call.location) }
          } else {
            add(nil, call.location)
          }
        }
        var index = ProviderCoverageIndex(provider: plan.provider)
        for (screen, location) in screens {
          if let screen { index.byScreen[screen] = items.count } else { index.any = items.count }
          items.append(
            CoverageItem(
              section: entry.section, tag: entry.name, screen: screen, provider: plan.provider,
              location: location))
        }
        indexes.append(index)
      }
      providers.append(indexes)
    }
    return (items, tags, providers)
  }
}

/// Where a record on a given screen marks coverage for one provider of one entry.
struct ProviderCoverageIndex: Sendable, Hashable {
  var provider: String
  var byScreen: [String: Int] = [:]
  var any: Int?

  /// The item a record on `screen` covers.
  func item(screen: String?) -> Int? {
    if let screen, let item = byScreen[screen] { return item }
    return any
  }
}
