extension PlanLoader {
  /// The keys of a funnel (`funnels: {name: …}`).
  static let funnelKeys = ["steps", "maxGap", "severity", "description"]
}

extension PlanLoader.Builder {
  /// Reads an entry's `after`, `once` or `duplicateWithin` into `rules`.
  func journeyRule(_ field: YAMLReader.Pair, _ what: String, into rules: inout EntryJourneyRules) throws {
    let label = "\(field.key) of \(what)"
    switch field.key {
    case "after":
      let names = try reader.strings(field.value, label)
      if names.isEmpty { throw reader.error(field.value, "\(label) names no tag") }
      rules.after = names
      rules.afterLocation = reader.location(field.keyNode)
    case "once":
      let word = try reader.string(field.value, label)
      guard let scope = OnceScope(rawValue: word) else {
        throw reader.error(
          field.value,
          "\(label) must be one of \(OnceScope.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(word)\""
        )
      }
      rules.once = scope
      rules.onceLocation = reader.location(field.keyNode)
    default:
      rules.duplicateWithin = try duration(field.value, label)
      rules.duplicateLocation = reader.location(field.keyNode)
    }
  }

  /// A duration: a whole number of ms, s, m or h (`500ms`, `10m`), more than zero.
  func duration(_ node: YAMLNode, _ what: String) throws -> Int64 {
    let text = try reader.string(node, what)
    guard let milliseconds = JourneyDuration.milliseconds(text), milliseconds > 0 else {
      throw reader.error(
        node, "\(what) must be a duration such as 500ms, 2s, 10m or 1h, found \"\(text)\"")
    }
    return milliseconds
  }

  /// The plan's `funnels`: each named, with its steps (tag names) and an optional `maxGap`.
  func funnels(_ node: YAMLNode) throws -> [Funnel] {
    if node.isNull { return [] }
    return try reader.mapping(node, "funnels").map { pair in
      let what = "funnel \(pair.key)"
      var funnel = Funnel(name: pair.key, location: reader.location(pair.keyNode), steps: [])
      var hasSteps = false
      for field in try reader.mapping(pair.value, what, allowed: PlanLoader.funnelKeys) {
        switch field.key {
        case "steps":
          hasSteps = true
          funnel.steps = try reader.sequence(field.value, "steps of \(what)").map { item in
            Funnel.Step(tag: try reader.string(item, "each step of \(what)"), location: reader.location(item))
          }
          if funnel.steps.isEmpty { throw reader.error(field.value, "steps of \(what) lists no step") }
        case "maxGap": funnel.maxGap = try duration(field.value, "maxGap of \(what)")
        case "severity": funnel.severity = try severity(field.value, "severity of \(what)")
        default: _ = try reader.string(field.value, "description of \(what)")
        }
      }
      guard hasSteps else { throw reader.error(pair.keyNode, "\(what) has no steps") }
      return funnel
    }
  }

  /// Every tag named by `after` and by a funnel's steps must be a planned entry: a typo there
  /// would silently never match.
  func checkJourneyNames(_ entries: [PlanEntry], _ funnels: [Funnel]) throws {
    guard entries.contains(where: { $0.journey.after != nil }) || !funnels.isEmpty else { return }
    let planned = Set(entries.map(\.name))
    for entry in entries {
      if let after = entry.journey.after, let location = entry.journey.afterLocation,
        let unknown = after.first(where: { !planned.contains($0) })
      {
        throw PlanLoadError(
          file: reader.file, location: location,
          message: "after of \(entry.label) names '\(unknown)', which is not a planned tag")
      }
    }
    for funnel in funnels {
      if let step = funnel.steps.first(where: { !planned.contains($0.tag) }) {
        throw PlanLoadError(
          file: reader.file, location: step.location,
          message: "a step of funnel \(funnel.name) names '\(step.tag)', which is not a planned tag")
      }
    }
  }
}
