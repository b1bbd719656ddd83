import AnalyticsHub
import TagscopeRecording

extension CatalogueCheck {
  /// Checks the self-describing entities a call holds at `path` (the catalogue's `entitiesAt`, a
  /// list of `{schema, data}`): each `data` against the entry its `schema` names (or the newest
  /// version of it), as that entry's params, at `path[schema]`; an entity whose schema no entry
  /// names is `unplanned-call` (unless the catalogue allows it); one without a `schema` string or
  /// a `data` object is `wrong-type`. Each entry met is marked as covered.
  static func checkEntities(
    at path: MessagePath, found: Found, marks: inout [CoverageMark], memo: inout PatternMemo,
    into violations: inout [PlanViolation]
  ) {
    guard let list = entities(at: path, in: found.call.parameters) else { return }
    let catalogue = found.plan.catalogues[found.position]
    for (offset, element) in list.enumerated() {
      guard case .object(let entity) = element, case .string(let schema)? = entity["schema"],
        case .object(let data)? = entity["data"]
      else {
        violations.append(
          PlanViolation(
            seq: found.record.seq, severity: .error, rule: .wrongType, tag: found.record.name,
            provider: found.provider,
            message:
              "\(PlanValidator.place(found.record)): \(found.provider) \(callLabel(found.call)) entity \(path)[\(offset)] is \(PropertyRule.describe(element, key: path.description)), plan line \(catalogue.location.line) expects a self-describing entity {schema, data} (the catalogue's entitiesAt: \(path))",
            planLine: catalogue.location.line, planFile: found.plan.file, evidence: nil))
        continue
      }
      guard let index = catalogue.entryIndex(forSchema: schema) else {
        guard let severity = catalogue.unplanned.severity else { continue }
        violations.append(
          PlanViolation(
            seq: found.record.seq, severity: severity, rule: .unplannedCall, tag: found.record.name,
            provider: found.provider,
            message:
              "\(PlanValidator.place(found.record)): \(found.provider) \(callLabel(found.call)) carries the entity \(schema) (\(path)[\(offset)]), which the \(found.provider) catalogue (plan line \(catalogue.location.line)) does not list",
            planLine: catalogue.location.line, planFile: found.plan.file,
            evidence: .unplannedCall(provider: found.provider, call: found.call, catalogue: catalogue)))
        continue
      }
      let entry = catalogue.entries[index]
      var problems: [ContentProblem] = []
      entry.parameterObject.objectProblems(
        in: .object(data), path: "\(path)[\(schema)]", missing: .missingParam, memo: &memo, into: &problems)
      found.report(
        problems, entry: index,
        what: "\(callLabel(found.call)) entity \(schema)\(substitute(entry, for: schema))", marks: &marks,
        into: &violations)
    }
  }

  /// The list at `path` in `parameters`; `nil` when nothing (or null) is there or it is not a list.
  private static func entities(at path: MessagePath, in parameters: Properties) -> [PropertyValue]? {
    guard let last = path.keys.last else { return nil }
    var holder = parameters
    for key in path.keys.dropLast() {
      guard case .object(let inner)? = holder[key] else { return nil }
      holder = inner
    }
    guard case .array(let list)? = holder[last] else { return nil }
    return list
  }
}
