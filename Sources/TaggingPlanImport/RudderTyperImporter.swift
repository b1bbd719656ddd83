import TaggingPlan

/// RudderTyper's `plan.json` (``ConfigPlanShape``): a RudderStack tracking plan in the shape of
/// Segment's Config API, read as Segment's is (``SegmentImporter``: each rule's whole-message
/// schema gives the call's `properties`, or `traits` for identify and group, and its `context`
/// the entry's `messageParams`), for the provider `rudderstack`. Rules with an `eventType` other
/// than `track` (RudderStack's non-track rules, unnamed) become `methods` entries. RudderStack
/// checked track events only before those rules, and checks a call of another type only
/// against its rule: identify, group, page, screen and alias without one are planned.
struct RudderTyperImporter: FormatImporter {
  private var segment: SegmentImporter
  /// What the import may expand to, shared by all its documents.
  var budget: ExpansionBudget {
    get { segment.budget }
    set { segment.budget = newValue }
  }

  init(provider: String, unplanned: UnplannedCalls) {
    segment = SegmentImporter(provider: provider, unplanned: unplanned)
    segment.vendor = "RudderStack"
  }

  /// Whether `documents` are RudderTyper plans (the first has the shape), not a rudder-cli project.
  static func reads(_ documents: [SourceDocument]) -> Bool {
    documents.first.map { ConfigPlanShape.isConfigPlan($0.root) } ?? false
  }

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    guard ConfigPlanShape.isConfigPlan(document.root) else {
      throw document.error(
        document.root,
        "not a RudderTyper plan.json (rules.events, a list): import a rudder-cli project apart from plan.json files"
      )
    }
    try segment.read(document)
  }

  mutating func finish() -> ImportDraft { segment.finish() }
}
