import AnalyticsHub
import TaggingPlan

/// Writes the mappings file: per provider the plan names, a mapping producing exactly the calls
/// the plan expects of each tag (name, method, parameters; nothing where it says `none`), and the
/// providers built from them.
struct MappingWriter {
  var model: TaxonomyModel
  var access: String

  /// One provider's mapping: its id, Swift name and call style.
  struct ProviderMapping {
    var id: String
    var name: String
    var style: ProviderCallStyle
  }

  /// The plan's consent, as the mappings say and register it.
  var consent: ConsentDocumentation { ConsentDocumentation(consent: model.plan.consent) }

  /// The mappings enum's name.
  var enumName: String { model.mappingsName }

  /// The providers the plan names, in order of first appearance, each with the style that
  /// records all its planned calls.
  var providers: [ProviderMapping] {
    var ids: [String] = []
    for entry in model.plan.entries {
      for provider in entry.providers where !ids.contains(provider.provider) { ids.append(provider.provider) }
    }
    if model.isCatalogueOnly {
      for catalogue in model.plan.catalogues where !ids.contains(catalogue.provider) {
        ids.append(catalogue.provider)
      }
    }
    var scope = NameScope(reserved: ["providers", "providerParameters"])
    return ids.map { id in
      let name = scope.claim(id, style: .lower)
      var style = ProviderCallStyle.known(id) ?? .described
      if style.namespace != nil, !allBuilt(provider: id, style: style) { style = .described }
      return ProviderMapping(id: id, name: name, style: style)
    }
  }

  func write(into writer: inout SourceWriter) {
    let providers = self.providers
    writer.doc(
      "The mappings plan \(model.plan.title) expects, one per provider it names: each tag becomes exactly",
      "the calls the plan lists for it (nothing where it says `none`, nothing for what it does not plan).")
    writer.doc("")
    for line in ContextParameter.rule { writer.doc(line) }
    writer.block("\(access)enum \(enumName)") { body in
      for (index, provider) in providers.enumerated() {
        if index > 0 { body.line() }
        body.doc("\(provider.id): the calls the plan expects of it.")
        if let line = consent.docLine(provider: provider.id) { body.doc(line) }
        body.line(
          "\(access)static let \(provider.name): Mapping<\(model.taxonomyName), \(provider.style.callType)> = { tag, context in"
        )
        body.indented { $0.line("\(provider.name)Calls(for: tag, in: context)") }
        body.line("}")
      }
      for provider in providers {
        body.line()
        writeCalls(provider, into: &body)
      }
      if model.tagTypes.contains(where: \.hasExtras) {
        body.line()
        writeExtras(into: &body)
      }
    }
    writer.line()
    writeProviders(providers, into: &writer)
  }

  private func writeProviders(_ providers: [ProviderMapping], into writer: inout SourceWriter) {
    writer.block("extension \(enumName)") { body in
      body.doc(
        "The plan's providers, each delivering to its adapter (by default, one that discards the calls)",
        "and, for a provider module, checked against the SDK's rules.")
      for line in consent.defaultLines { body.doc(line) }
      let needsEnvironment = providers.contains { $0.style.namespace != nil }
      var parameters = providers.map {
        "\($0.name): any SDKAdapter<\($0.style.callType)> = DiscardingAdapter<\($0.style.callType)>()"
      }
      if needsEnvironment { parameters.append("environment: EnvironmentSwitch = EnvironmentSwitch()") }
      body.line("\(access)static func providers(")
      body.indented { inner in
        for (index, parameter) in parameters.enumerated() {
          inner.line(parameter + (index == parameters.count - 1 ? "" : ","))
        }
      }
      body.block(") -> ProviderSet<\(model.taxonomyName)>") { function in
        if providers.isEmpty {
          function.line("ProviderSet([])")
          return
        }
        function.line("ProviderSet([")
        function.indented { list in
          for provider in providers {
            if let namespace = provider.style.namespace {
              list.line(
                "\(namespace).provider(\(consent.categoryArgument(provider: provider.id))environment: environment, adapter: \(provider.name), mapping: Self.\(NameScope.unescaped(provider.name))),"
              )
            } else {
              list.line(
                "Provider(id: ProviderID(rawValue: \(SwiftLiteral.string(provider.id))), \(consent.categoryArgument(provider: provider.id))adapter: \(provider.name), mapping: Self.\(NameScope.unescaped(provider.name))),"
              )
            }
          }
        }
        function.line("])")
      }
    }
  }

  private func writeExtras(into writer: inout SourceWriter) {
    writer.doc("The values a tag carries for providers besides its properties.")
    writer.block("static func providerParameters(of tag: Tag<\(model.taxonomyName)>) -> Properties") { body in
      body.switchBlock("switch tag") { cases in
        for type in model.tagTypes where type.hasExtras {
          switch type.section {
          case .screens: cases.line("case .screen(let tag): return tag.providerParameters")
          case .actions: cases.line("case .userAction(let tag): return tag.providerParameters")
          case .events: cases.line("case .event(let tag): return tag.providerParameters")
          case .states: cases.line("case .state(let tag): return tag.providerParameters")
          case .timed:
            cases.line(
              "case .timedStart(let tag), .timedStop(let tag, _), .timedCancel(let tag, _): return tag.providerParameters"
            )
          }
        }
        cases.line("default: return [:]")
      }
    }
  }

  /// The tag kinds' patterns for a case of a type, with the phase each stands for.
  private func patterns(_ type: TagType, _ tag: TagCase) -> [(String, CallCondition.Phase?)] {
    switch type.section {
    case .screens: return [(".screen(.\(tag.name))", nil)]
    case .actions: return [(".userAction(.\(tag.name))", nil)]
    case .events: return [(".event(.\(tag.name))", nil)]
    case .states: return [(".state(.\(tag.name))", nil)]
    case .timed:
      return [
        (".timedStart(.\(tag.name))", .start), (".timedStop(.\(tag.name), _)", .stop),
        (".timedCancel(.\(tag.name), _)", .cancel),
      ]
    }
  }

  private func writeCalls(_ provider: ProviderMapping, into writer: inout SourceWriter) {
    var body = SourceWriter()
    var handled = false
    for type in model.tagTypes {
      for tag in type.cases {
        if let catalogue = tag.catalogueCall {
          guard catalogue.provider == provider.id else { continue }
          let identifier = tag.extras.first.map {
            "(tagExtras[\(SwiftLiteral.string($0.key))]?.stringValue ?? \"\")"
          }
          let parts = ProviderCallStyle.Parts(
            name: catalogue.call.name.map(SwiftLiteral.string) ?? identifier, parameters: "tagProperties",
            value: "(tagProperties[\"value\"] ?? .null)", eventType: "tag.eventType", category: "\"app\"")
          let method = catalogue.call.method
          let call =
            provider.style.expression(method: method, parts: parts)
            ?? ProviderCallStyle.description(method: method, parts: parts)
          body.line("case \(patterns(type, tag)[0].0):")
          body.indented { $0.line("return [\(call)]") }
          handled = true
          continue
        }
        guard let entry = tag.entry, let plan = entry.providers.first(where: { $0.provider == provider.id })
        else { continue }
        for (pattern, phase) in patterns(type, tag) {
          writeCase(pattern, entry: entry, plan: plan, phase: phase, style: provider.style, into: &body)
          handled = true
        }
      }
    }
    writer.doc("The calls plan \(model.plan.title) expects \(provider.id) to receive for `tag` in `context`.")
    writer.block(
      "static func \(NameScope.unescaped(provider.name))Calls(for tag: Tag<\(model.taxonomyName)>, in context: HubContext<\(model.taxonomyName)>) -> [\(provider.style.callType)]"
    ) { function in
      let text = body.lines.joined(separator: "\n")
      if text.contains("switch screen") { function.line("let screen = context.currentScreen?.name") }
      if text.contains("tagProperties[") || text.contains("tagProperties)") {
        function.line("let tagProperties = tag.properties")
      }
      if text.contains("tagExtras[") { function.line("let tagExtras = providerParameters(of: tag)") }
      guard handled else {
        function.line("[]")
        return
      }
      function.switchBlock("switch tag") { cases in
        cases.lines(body.lines)
        cases.line("default:")
        cases.indented { $0.line("return []") }
      }
    }
  }

  private func writeCase(
    _ pattern: String, entry: PlanEntry, plan: ProviderPlan, phase: CallCondition.Phase?,
    style: ProviderCallStyle, into writer: inout SourceWriter
  ) {
    var screens: [String] = []
    for call in plan.calls {
      for screen in call.condition?.screens ?? [] where !screens.contains(screen) { screens.append(screen) }
    }
    var groups: [(screens: [String], calls: String)] = []
    for screen in screens {
      let calls = callList(entry: entry, plan: plan, screen: screen, phase: phase, style: style)
      if let index = groups.firstIndex(where: { $0.calls == calls }) {
        groups[index].screens.append(screen)
      } else {
        groups.append(([screen], calls))
      }
    }
    let fallback = callList(entry: entry, plan: plan, screen: nil, phase: phase, style: style)
    writer.line("case \(pattern):")
    writer.indented { body in
      let distinct = groups.filter { $0.calls != fallback }
      guard !distinct.isEmpty else {
        body.line("return \(fallback)")
        return
      }
      body.switchBlock("switch screen") { cases in
        for group in distinct {
          cases.line("case " + group.screens.map(SwiftLiteral.string).joined(separator: ", ") + ":")
          cases.indented { $0.line("return \(group.calls)") }
        }
        cases.line("default:")
        cases.indented { $0.line("return \(fallback)") }
      }
    }
  }

  /// `[.logEvent(…), …]`: the calls that apply on `screen` (`nil`: a screen no condition names)
  /// at `phase`.
  private func callList(
    entry: PlanEntry, plan: ProviderPlan, screen: String?, phase: CallCondition.Phase?,
    style: ProviderCallStyle
  ) -> String {
    let calls = applicable(plan.calls, screen: screen, phase: phase)
    if calls.contains(where: \.isNone) { return "[]" }
    let expressions = calls.map { call in
      let parts = self.parts(call, entry: entry, provider: plan.provider)
      return style.expression(method: call.method, parts: parts)
        ?? ProviderCallStyle.description(method: call.method, parts: parts)
    }
    return "[" + expressions.joined(separator: ", ") + "]"
  }

  /// The calls whose condition holds, else those without one.
  func applicable(_ calls: [ExpectedCall], screen: String?, phase: CallCondition.Phase?) -> [ExpectedCall] {
    let conditional = calls.filter { call in
      guard let condition = call.condition else { return false }
      if let screens = condition.screens {
        guard let screen, screens.contains(screen) else { return false }
      }
      if let wanted = condition.phase, wanted != phase { return false }
      return true
    }
    return conditional.isEmpty ? calls.filter { $0.condition == nil } : conditional
  }

  /// Whether `style` records every call the plan expects of `provider`.
  private func allBuilt(provider: String, style: ProviderCallStyle) -> Bool {
    for entry in model.plan.entries {
      for plan in entry.providers where plan.provider == provider {
        for call in plan.calls where !call.isNone {
          if style.expression(method: call.method, parts: parts(call, entry: entry, provider: provider))
            == nil
          {
            return false
          }
        }
      }
    }
    if model.isCatalogueOnly {
      for catalogue in model.plan.catalogues where catalogue.provider == provider {
        for call in catalogue.entries {
          let identifier = call.method.flatMap { TaxonomyModel.identifierLabels[$0] }.map { _ in "id" }
          let parts = ProviderCallStyle.Parts(
            name: call.name.map(SwiftLiteral.string) ?? identifier, parameters: "properties", value: ".null",
            eventType: "tag.eventType", category: "\"app\"")
          if style.expression(method: call.method, parts: parts) == nil { return false }
        }
      }
    }
    return true
  }

  /// The pieces of a planned call's expression: its name, parameters and value.
  private func parts(_ call: ExpectedCall, entry: PlanEntry, provider: String) -> ProviderCallStyle.Parts {
    var pairs: [(String, String)] = []
    var eventType = "tag.eventType"
    var category = "\"app\""
    for param in call.params {
      // FPTI's event type and category are the call's envelope, not its properties.
      let isEnvelope = ProviderCallStyle.envelopeParameters(provider).contains(param.name)
      if case .value(let value) = param.expectation {
        if param.name == "e", let code = value.stringValue, let type = ProviderCallStyle.eventTypeCase(code) {
          eventType = type
        }
        if param.name == "category", let text = value.stringValue { category = SwiftLiteral.string(text) }
        if !isEnvelope { pairs.append((param.name, SwiftLiteral.value(value))) }
      } else if !isEnvelope {
        pairs.append((param.name, source(param.name, entry: entry)))
      }
    }
    let planned = pairs.first { $0.0 == "value" }.map { "(\($0.1))" }
    let sole = ParamSource.soleProperty(entry).map { "(tagProperties[\(SwiftLiteral.string($0))] ?? .null)" }
    // A one-value call the plan gives no value takes the tag's own `value`: its property, else the
    // parameter the app passes for another provider's call.
    let own =
      (entry.properties ?? []).contains { $0.name == "value" } ? "(tagProperties[\"value\"] ?? .null)" : nil
    let passed =
      TaxonomyModel.extraKeys(entry).contains { $0.name == "value" } ? "(tagExtras[\"value\"] ?? .null)" : nil
    let value = planned ?? sole ?? own ?? passed ?? "PropertyValue.null"
    return ProviderCallStyle.Parts(
      name: call.name.map(SwiftLiteral.string), parameters: SwiftLiteral.propertiesLiteral(pairs),
      value: value, eventType: eventType, category: category)
  }

  /// Where a planned parameter's value is read: the tag's property of that name (the timed
  /// `duration` included), a state's one property, the hub's context (``ContextParameter``), or
  /// what the tag carries for providers.
  private func source(_ name: String, entry: PlanEntry) -> String {
    let properties = Set((entry.properties ?? []).map(\.name))
    let key = SwiftLiteral.string(name)
    if properties.contains(name) || (entry.section == .timed && (name == "duration" || name == "cancelled")) {
      return "tagProperties[\(key)] ?? .null"
    }
    if let sole = ParamSource.soleProperty(entry) {
      return "tagProperties[\(SwiftLiteral.string(sole))] ?? .null"
    }
    if let context = ContextParameter.expression(name) { return context }
    return "tagExtras[\(key)] ?? .null"
  }
}
