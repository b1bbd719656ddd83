import PodcastDemo
import TaggingPlan
import TagscopeLive

extension PlanChecker {
  /// Loads the plan at `path`, or the demo's own plan when `path` is nil and `demo` is set.
  static func loadPlan(path: String?, demo: Bool) throws -> Plan? {
    if let path { return try PlanLoader.load(contentsOf: path) }
    return demo ? try PlanLoader.load(yaml: DemoPlan.yaml, file: "demo plan") : nil
  }
}
