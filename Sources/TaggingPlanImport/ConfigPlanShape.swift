/// The Config API tracking plan shape, `{display_name, name, rules: {events: [{name, rules}]}}`,
/// which two tools write: Segment's Config API (and typewriter v7's `plan.json` from it), and
/// RudderTyper, RudderStack's fork of typewriter, whose `plan.json` holds what RudderStack's
/// tracking plan API returns (rudderlabs/rudder-typer `src/cli/api/api.ts`: the 2021–2022 shape
/// `{create_time, display_name, name, rules: {events}}`, then `{id, name, creationType,
/// workspaceId, rules: {events: [{eventType, name, rules}]}}` since non-track rules). The marks
/// below tell them apart; a plan with neither tool's marks (or both) is either, and the import
/// asks which.
enum ConfigPlanShape {
  /// Whether `root` has the shape: `rules`, an object with an `events` list.
  static func isConfigPlan(_ root: SourceNode) -> Bool {
    root["rules"]?["events"]?.elements != nil
  }

  /// What says RudderStack wrote `root`: its ids (`tp_…` plans, `ev_…` events), the keys of its
  /// current API (`creationType`, `workspaceId`, an event's `eventType`).
  static func rudderStackMarks(_ root: SourceNode) -> [String] {
    var marks: [String] = []
    if root["name"]?.string?.contains("/tracking-plans/tp_") == true {
      marks.append("name …/tracking-plans/tp_…")
    }
    if root["id"]?.string?.hasPrefix("tp_") == true { marks.append("id tp_…") }
    for key in ["creationType", "workspaceId"] where root[key] != nil { marks.append(key) }
    let events = root["rules"]?["events"]?.elements ?? []
    if events.contains(where: { $0["eventType"] != nil }) { marks.append("rules.events[].eventType") }
    if events.contains(where: { $0["id"]?.string?.hasPrefix("ev_") == true }) {
      marks.append("rules.events[].id ev_…")
    }
    return marks
  }

  /// What says Segment wrote `root`: a Config API plan's resource name (`…/tracking-plans/rs_…`).
  static func segmentMarks(_ root: SourceNode) -> [String] {
    root["name"]?.string?.contains("/tracking-plans/rs_") == true ? ["name …/tracking-plans/rs_…"] : []
  }

  /// Why `root` is a RudderTyper `plan.json`; `nil` when it is not, or Segment's marks alone say
  /// it is Segment's.
  static func rudderTyperEvidence(_ root: SourceNode) -> String? {
    guard isConfigPlan(root) else { return nil }
    let rudderStack = rudderStackMarks(root)
    guard !rudderStack.isEmpty || segmentMarks(root).isEmpty else { return nil }
    return (["RudderTyper plan.json: rules.events[].rules"] + rudderStack).joined(separator: ", ")
  }

  /// Whether RudderStack's marks alone say `root` is RudderStack's (so not Segment's).
  static func isRudderStacksOnly(_ root: SourceNode) -> Bool {
    isConfigPlan(root) && !rudderStackMarks(root).isEmpty && segmentMarks(root).isEmpty
  }
}
