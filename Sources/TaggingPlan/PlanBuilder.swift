import AnalyticsHub

extension PlanLoader {
  /// Turns a composed YAML tree into a ``Plan``, checking every key and value.
  struct Builder {
    let reader: YAMLReader
    let yaml: String
    /// Whether the plan keeps its catalogues' entries; `false` checks each and lets it go.
    var keepsCatalogueEntries = true

    func plan(_ root: YAMLNode) throws -> Plan {
      let pairs = try reader.mapping(root, "the plan", allowed: PlanLoader.topKeys)
      var name: String?
      var description: String?
      var version: String?
      var unplanned = Severity.error
      var sections: Set<PlanSection> = []
      var entries: [PlanEntry] = []
      var catalogues: [CallCatalogue] = []
      var custom: Set<String> = []
      var funnels: [Funnel] = []
      var privacy = PlanPrivacy()
      var consent: PlanConsent?
      for pair in pairs {
        switch pair.key {
        case "funnels": funnels = try self.funnels(pair.value)
        case "privacy": privacy = try self.privacy(pair.value)
        case "consent": consent = try self.consent(pair)
        case "catalogues": catalogues = try self.catalogues(pair.value)
        case "customProviders": custom = try customProviders(pair.value)
        case "plan": name = try reader.string(pair.value, "plan")
        case "version": version = try reader.string(pair.value, "version")
        case "description": description = try reader.string(pair.value, "description")
        case "unplanned": unplanned = try severity(pair.value, "unplanned")
        default:
          guard let section = PlanSection(key: pair.key) else { continue }
          sections.insert(section)
          if pair.value.isNull { continue }
          for entryPair in try reader.mapping(pair.value, pair.key) {
            entries.append(try entry(entryPair, section: section))
          }
        }
      }
      guard let name else {
        throw reader.error(root, "the plan has no 'plan' key naming it")
      }
      try checkScreenNames(entries)
      try checkProviderIDs(entries, catalogues, custom: custom)
      try checkJourneyNames(entries, funnels)
      try checkConsentProviders(consent, custom: custom)
      var plan = Plan(
        name: name, version: version, file: reader.file, unplannedSeverity: unplanned, sections: sections,
        entries: entries, catalogues: catalogues, funnels: funnels)
      plan.description = description
      plan.privacy = privacy
      plan.consent = consent
      return plan
    }

    func severity(_ node: YAMLNode, _ what: String) throws -> Severity {
      let word = try reader.string(node, what)
      guard let severity = Severity(rawValue: word) else {
        throw reader.error(node, "\(what) must be error or warning, found \(reader.describe(node))")
      }
      return severity
    }

    func entry(_ pair: YAMLReader.Pair, section: PlanSection) throws -> PlanEntry {
      let what = "\(section.noun) \(pair.key)"
      var entry = PlanEntry(section: section, name: pair.key, location: reader.location(pair.keyNode))
      if pair.value.isNull { return entry }
      let allowed =
        section == .screens ? PlanLoader.entryKeys.filter { $0 != "screens" } : PlanLoader.entryKeys
      for field in try reader.mapping(pair.value, what, allowed: allowed) {
        switch field.key {
        case "description": entry.description = try reader.string(field.value, "description of \(what)")
        case "severity": entry.severity = try severity(field.value, "severity of \(what)")
        case "properties":
          entry.propertiesLocation = reader.location(field.keyNode)
          entry.properties = try properties(field.value, what)
        case "screens":
          entry.screensLocation = reader.location(field.keyNode)
          entry.screens = try reader.strings(field.value, "screens of \(what)")
        case "after", "once", "duplicateWithin": try journeyRule(field, what, into: &entry.journey)
        default:
          entry.providers = try providers(field.value, what, section: section)
        }
      }
      return entry
    }

    func properties(_ node: YAMLNode, _ what: String, depth: Int = 0) throws -> [PropertyRule] {
      if node.isNull { return [] }
      return try reader.mapping(node, "properties of \(what)").map { pair in
        try propertyRule(pair, "property \(pair.key) of \(what)", depth: depth)
      }
    }

    func propertyRule(_ pair: YAMLReader.Pair, _ what: String, depth: Int = 0) throws -> PropertyRule {
      var rule = PropertyRule(name: pair.key, location: reader.location(pair.keyNode))
      if pair.value.isNull { return rule }
      guard depth < PlanLoader.nestingLimit else {
        throw reader.error(pair.keyNode, "\(what) nests deeper than \(PlanLoader.nestingLimit) levels")
      }
      var keywords = SchemaKeywords<PropertyRule>()
      for field in try reader.mapping(pair.value, what, allowed: PlanLoader.propertyKeys) {
        let value = field.value
        if try keyword(field, what, depth: depth, into: &keywords) { continue }
        switch field.key {
        case "type":
          rule.types = try reader.strings(value, "type of \(what)").map { word in
            guard let type = ValueType(rawValue: word) else {
              throw reader.error(
                value,
                "type of \(what) must be one of \(ValueType.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(word)\""
              )
            }
            return type
          }
        case "required": rule.required = try reader.bool(value, "required of \(what)")
        case "enum":
          rule.allowed = try reader.sequence(value, "enum of \(what)").map {
            try anyValue($0, "each enum value of \(what)")
          }
        case "pattern":
          let source = try reader.string(value, "pattern of \(what)")
          do {
            rule.pattern = try PlanPattern(source)
          } catch {
            throw reader.error(
              value, "pattern of \(what) is not a valid regular expression (\(error)): \(source)")
          }
        case "minimum": rule.minimumValue = try reader.exactNumber(value, "minimum of \(what)")
        case "maximum": rule.maximumValue = try reader.exactNumber(value, "maximum of \(what)")
        case "minLength": rule.minLength = try reader.nonNegativeInt(value, "minLength of \(what)")
        case "maxLength": rule.maxLength = try reader.nonNegativeInt(value, "maxLength of \(what)")
        case "pii": rule.allowedPII = try allowedPII(value, what)
        case "const": rule.constant = try anyValue(value, "const of \(what)")
        case "format":
          let word = try reader.string(value, "format of \(what)")
          guard let format = ValueFormat(rawValue: word) else {
            throw reader.error(
              value,
              "format of \(what) must be one of \(ValueFormat.allCases.map(\.rawValue).joined(separator: ", ")), found \"\(word)\""
            )
          }
          rule.format = format
        case "properties": rule.properties = try properties(value, what, depth: depth + 1)
        case "additionalProperties":
          if value.kind == .mapping {
            keywords.additionalSchema = try propertyRule(
              YAMLReader.Pair(key: "additionalProperties", keyNode: field.keyNode, value: value),
              "additionalProperties of \(what)", depth: depth + 1)
          } else {
            rule.additionalProperties = try reader.bool(value, "additionalProperties of \(what)")
            // JSON Schema's `true` is the schema `{}`: it allows every other key and, unlike
            // leaving the keyword out, evaluates them (for `unevaluatedProperties`).
            if rule.additionalProperties {
              keywords.additionalSchema = PropertyRule(
                name: "additionalProperties", location: reader.location(field.keyNode))
            }
          }
        case "items":
          rule.items = try propertyRule(
            YAMLReader.Pair(key: "items", keyNode: field.keyNode, value: value), "items of \(what)",
            depth: depth + 1)
        default: rule.description = try reader.string(value, "description of \(what)")
        }
      }
      rule.keywords = keywords
      return rule
    }

    func providers(_ node: YAMLNode, _ what: String, section: PlanSection) throws -> [ProviderPlan] {
      try reader.mapping(node, "providers of \(what)").map { pair in
        let providerWhat = "provider \(pair.key) of \(what)"
        let location = reader.location(pair.keyNode)
        let calls: [ExpectedCall]
        switch pair.value.kind {
        case .scalar:
          guard try reader.string(pair.value, providerWhat) == "none" else {
            throw reader.error(
              pair.value,
              "\(providerWhat) must be a call {name, params}, a list of calls or none, found \(reader.describe(pair.value))"
            )
          }
          calls = [ExpectedCall(isNone: true, location: reader.location(pair.value))]
        case .sequence:
          calls = try reader.sequence(pair.value, providerWhat).map {
            try call($0, providerWhat, section: section)
          }
          if calls.isEmpty { throw reader.error(pair.value, "\(providerWhat) lists no call") }
        default:
          calls = [try call(pair.value, providerWhat, section: section)]
        }
        return ProviderPlan(provider: pair.key, calls: calls, location: location)
      }
    }

    func call(_ node: YAMLNode, _ what: String, section: PlanSection) throws -> ExpectedCall {
      var expected = ExpectedCall(location: reader.location(node))
      for field in try reader.mapping(node, "a call of \(what)", allowed: PlanLoader.callKeys) {
        switch field.key {
        case "when": expected.condition = try condition(field.value, what, section: section)
        case "name": expected.name = try reader.string(field.value, "name of \(what)")
        case "method": expected.method = try reader.string(field.value, "method of \(what)")
        case "none":
          guard try reader.bool(field.value, "none of \(what)") else {
            throw reader.error(field.value, "none of \(what) can only be true; leave it out otherwise")
          }
          expected.isNone = true
        case "params": expected.params = try params(field.value, what)
        default: _ = try reader.string(field.value, "description of \(what)")
        }
      }
      if expected.isNone, expected.name != nil || expected.method != nil || !expected.params.isEmpty {
        throw reader.error(node, "a call of \(what) cannot be both none and name a call")
      }
      if !expected.isNone, expected.name == nil, expected.method == nil {
        throw reader.error(node, "a call of \(what) needs a name (or a method), or none: true")
      }
      return expected
    }

    func condition(_ node: YAMLNode, _ what: String, section: PlanSection) throws -> CallCondition {
      var condition = CallCondition()
      for field in try reader.mapping(node, "when of \(what)", allowed: ["screen", "phase"]) {
        if field.key == "screen" {
          condition.screens = try reader.strings(field.value, "screen of when of \(what)")
        } else {
          guard section == .timed else {
            throw reader.error(field.keyNode, "phase in \(what) only applies to timed events")
          }
          let word = try reader.string(field.value, "phase of \(what)")
          guard let phase = CallCondition.Phase(rawValue: word) else {
            throw reader.error(
              field.value, "phase of \(what) must be start, stop or cancel, found \"\(word)\"")
          }
          condition.phase = phase
        }
      }
      return condition
    }

    func params(_ node: YAMLNode, _ what: String) throws -> [PlannedParam] {
      if node.kind == .sequence {
        return try reader.sequence(node, "params of \(what)").map { item in
          PlannedParam(
            name: try reader.string(item, "each param of \(what)"), expectation: .present,
            location: reader.location(item))
        }
      }
      return try reader.mapping(node, "params of \(what)").map { pair in
        let location = reader.location(pair.keyNode)
        switch pair.value.kind {
        case .mapping:
          let rule = try propertyRule(pair, "param \(pair.key) of \(what)")
          return PlannedParam(name: pair.key, expectation: .constrained(rule), location: location)
        default:
          if pair.value.isNull {
            return PlannedParam(name: pair.key, expectation: .present, location: location)
          }
          let value = try reader.value(pair.value, "param \(pair.key) of \(what)")
          return PlannedParam(name: pair.key, expectation: .value(value), location: location)
        }
      }
    }

    /// Every screen named in `screens:` and `when: {screen:}` must be a planned screen, when the
    /// plan lists screens: a typo there would silently never match.
    func checkScreenNames(_ entries: [PlanEntry]) throws {
      let planned = Set(entries.filter { $0.section == .screens }.map(\.name))
      guard !planned.isEmpty else { return }
      for entry in entries {
        if let screens = entry.screens, let location = entry.screensLocation,
          let unknown = screens.first(where: { !planned.contains($0) })
        {
          throw PlanLoadError(
            file: reader.file, location: location,
            message: "screens of \(entry.label) names '\(unknown)', which is not a planned screen")
        }
        for provider in entry.providers {
          for call in provider.calls {
            if let unknown = call.condition?.screens?.first(where: { !planned.contains($0) }) {
              throw PlanLoadError(
                file: reader.file, location: call.location,
                message:
                  "when of provider \(provider.provider) of \(entry.label) names screen '\(unknown)', which is not a planned screen"
              )
            }
          }
        }
      }
    }
  }
}
