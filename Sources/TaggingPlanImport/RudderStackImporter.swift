import Foundation
import TaggingPlan

/// RudderStack tracking plans as `rudder-cli` keeps them: a `kind: tp` (`rudder/0.1`,
/// `rudder/v0.1`) or `kind: tracking-plan` (`rudder/v1`) file whose `spec.rules` reference the
/// events, properties and custom types of the data catalog files given with it.
///
/// RudderStack's SDKs send Segment's message shape: a track rule becomes a `calls` entry (the
/// event's name, `method: track`) whose `properties` parameter carries the rule's properties;
/// identify and group rules become `methods` entries on `traits`, page and screen rules `methods`
/// entries on `properties`. `allow_unplanned: false` (v0.1) or `additional_properties: false`
/// (v1) closes that object. `RUDDER_NAME` environment variables (``ImportOptions/environment``) and
/// `*.vars.yaml` files among them (rudder-cli's `--var-file`) give the values of the
/// `{{ .NAME }}` placeholders in names and descriptions (``RudderStackVariables``). A rule's
/// `includes` brings in the rules of another tracking plan given (``include(_:rule:_:path:)``).
struct RudderStackImporter {
  private var draft: ImportDraft
  /// What the import may expand to, shared by all its documents.
  var budget = ExpansionBudget(sourceBytes: 0) {
    didSet { variables.budget = budget }
  }
  /// Whether a warning said the budget's nodes are spent.
  private var budgetReported = false
  private var catalog = RudderStackCatalog()
  private var plans: [(spec: SourceNode, document: SourceDocument)] = []
  private var files: [String] = []
  private var variables = RudderStackVariables()
  /// The rules imported (file and path): a rule a plan includes and its own plan give once.
  private var imported: Set<String> = []

  init(provider: String, unplanned: UnplannedCalls) {
    draft = ImportDraft(provider: provider, unplanned: unplanned)
  }

  /// Takes the `RUDDER_` variables of the options' environment.
  mutating func configure(_ options: ImportOptions) {
    variables.takeEnvironment(options.environment)
  }

  /// Why `root` is a `rudder-cli` file (its version and kind); `nil` when it is not.
  static func evidence(_ root: SourceNode) -> String? {
    guard let version = root["version"]?.string, version.hasPrefix("rudder/"), let kind = root["kind"]?.string
    else { return nil }
    return "rudder-cli file: version \(version), kind \(kind)"
  }

  mutating func read(_ document: SourceDocument) throws(ImportError) {
    let root = document.root
    files.append(document.file)
    if RudderStackVariables.isVarFile(document.file) {
      for warning in variables.add(document) { draft.warn(warning) }
      return
    }
    guard Self.evidence(root) != nil else {
      throw document.error(root, "not a rudder-cli file: expected version: rudder/… and kind")
    }
    let kind = root["kind"]?.string ?? ""
    guard let spec = root["spec"], spec.members != nil else {
      throw document.error(root, "a rudder-cli file needs spec, an object")
    }
    let group = root["metadata"]?["name"]?.string ?? document.baseName
    switch kind {
    case "events": try catalog.add(.events, spec: spec, group: group, document: document)
    case "properties": try catalog.add(.properties, spec: spec, group: group, document: document)
    case "custom-types": try catalog.add(.customTypes, spec: spec, group: group, document: document)
    case "tp", "tracking-plan": plans.append((spec, document))
    case "categories":
      if let categories = spec.members?.first(where: { $0.key == "categories" }) {
        KeyLedger.leaveOut(categories, because: KeyLedger.categories)
      }
    default:
      if let member = root.member("kind") {
        draft.warn(document.warning(member, JSONPath.root.key("kind"), "kind \(kind) (kind) is not imported"))
      }
    }
  }

  mutating func finish() throws(ImportError) -> ImportDraft {
    guard !plans.isEmpty else {
      throw ImportError(
        file: files.first ?? "", message: "no tracking plan (kind: tp or kind: tracking-plan) among the files"
      )
    }
    for (spec, document) in plans {
      draft.offerName(spec["display_name"]?.string ?? spec["id"]?.string)
      for member in spec.members ?? [] where member.key != "rules" {
        KeyLedger.leaveOut(member, because: KeyLedger.planMetadata)
      }
      for (rule, path) in try Self.rules(of: spec, document) {
        for member in rule.members ?? [] where member.key == "id" {
          KeyLedger.leaveOut(member, because: KeyLedger.ruleMetadata)
        }
        if let includes = rule["includes"] {
          if let type = rule.member("type") { KeyLedger.current?.carry(type) }  // an include's type
          try include(includes, rule: rule, document, path: path)
        } else {
          try importOnce(rule, document, path: path)
        }
      }
    }
    catalog.leaveOutUnused()
    if budget.bytesExceeded, let (_, document) = plans.first {
      draft.warn(
        document.warning(
          document.root, .root,
          "\(budget.bytesMessage): the names and descriptions past it keep their placeholders as written"))
    }
    return draft
  }

  /// The rules of a tracking plan's spec, each with its path.
  private static func rules(of spec: SourceNode, _ document: SourceDocument) throws(ImportError)
    -> [(SourceNode, JSONPath)]
  {
    guard let rules = spec["rules"]?.elements else {
      throw document.error(spec, "spec.rules of a tracking plan must be a list")
    }
    return rules.enumerated().map { ($0.element, JSONPath.root.keys("spec", "rules").index($0.offset)) }
  }

  /// Imports `rule` unless it was already (a rule another plan includes is the same rule).
  private mutating func importOnce(_ rule: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    guard imported.insert("\(document.file)#\(path)").inserted else { return }
    try self.rule(rule, document, path: path)
  }

  /// A rule's `includes: {$ref: "#/tp/<plan id>/event_rule/<rule id or *>"}`: the event rules of
  /// another tracking plan given, as rudder-cli expands them (rudderlabs/rudder-iac
  /// `cli/internal/providers/datacatalog/localcatalog/tracking_plan.go`, `expandIncludeRefs`):
  /// one rule or, with `*`, every rule of that plan that names an event; one level deep. Every
  /// tracking plan given is imported (its own includes with it), each rule once.
  private mutating func include(
    _ includes: SourceNode, rule: SourceNode, _ document: SourceDocument, path: JSONPath
  ) throws(ImportError) {
    let here = path.key("includes")
    guard rule["event"] == nil else {
      throw document.error(rule, "the rule \(path) has both event and includes (rudder-cli takes one)")
    }
    guard let reference = includes["$ref"]?.string else {
      throw document.error(
        includes, "\(here) needs $ref: \"#/tp/<tracking plan id>/event_rule/<rule id or *>\"")
    }
    let parts = reference.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 5, parts[0] == "#", parts[1] == "tp", parts[3] == "event_rule",
      !parts[2].isEmpty, !parts[4].isEmpty,
      (parts[2] + parts[4]).allSatisfy({
        $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" || $0 == "*")
      })
    else {
      throw document.error(
        includes,
        "\(reference) (\(here)) is not a reference of the form #/tp/<tracking plan id>/event_rule/<rule id or *>"
      )
    }
    let planID = String(parts[2])
    let ruleID = String(parts[4])
    guard let target = plans.first(where: { $0.spec["id"]?.string == planID }) else {
      throw document.error(
        includes,
        "\(reference) (\(here)): no tracking plan with id \(planID) in the given files (pass its file)")
    }
    var found = false
    for (included, includedPath) in try Self.rules(of: target.spec, target.document)
    where ruleID == "*" || included["id"]?.string == ruleID {
      found = true
      // rudder-cli follows one level: a rule of that plan that includes others is that plan's
      // own, imported with it.
      guard included["event"] != nil else { continue }
      try importOnce(included, target.document, path: includedPath)
    }
    guard found || ruleID == "*" else {
      throw document.error(
        includes, "\(reference) (\(here)): the tracking plan \(planID) has no rule \(ruleID)")
    }
  }

  private mutating func rule(_ rule: SourceNode, _ document: SourceDocument, path: JSONPath)
    throws(ImportError)
  {
    guard let members = rule.members else { throw document.error(rule, "a rule must be an object") }
    let type = rule["type"]?.string ?? "event_rule"
    guard type == "event_rule" else {
      draft.warn(document.warning(rule, path, "the rule type \(type) (\(path)) is not imported"))
      return
    }
    guard let eventNode = rule["event"] else { throw document.error(rule, "the rule \(path) has no event") }
    let eventReference = eventNode.string ?? eventNode["$ref"]?.string
    guard let eventReference else {
      throw document.error(eventNode, "the event of \(path) must be a reference (\"#/events/<group>/<id>\")")
    }
    guard let event = catalog.resolve(eventReference, .events) else {
      throw document.error(
        eventNode, "\(eventReference) is not defined in the given files (pass its events file)")
    }
    for member in event.node.members ?? [] where member.key == "category" {
      KeyLedger.leaveOut(member, because: KeyLedger.categories)
    }
    var additional: Bool?
    if let allow = eventNode["allow_unplanned"]?.bool { additional = allow }
    var properties: [NamedConstraints] = []
    var variants: [PropertyConstraints] = []
    for member in members {
      let here = path.key(member.key)
      switch member.key {
      case "id": KeyLedger.leaveOut(member, because: KeyLedger.ruleMetadata)
      case "description":
        KeyLedger.leaveOut(member, because: "descriptions of rules (the event's own is carried)")
      case "event": break
      default: KeyLedger.current?.carry(member)
      }
      switch member.key {
      case "type", "id", "event", "description": break
      case "properties":
        guard let items = member.value.elements else {
          throw document.error(member.value, "\(here) must be a list")
        }
        for (index, item) in items.enumerated() {
          properties.append(
            try propertyItem(
              item, document, path: here.index(index), depth: 1, customTypes: [], expanding: false))
        }
      case "allow_unplanned", "additional_properties", "additionalProperties":
        guard let flag = member.value.bool else {
          throw document.error(member.value, "\(here) must be true or false")
        }
        additional = flag
      case "variants":
        guard let items = member.value.elements else {
          throw document.error(member.value, "\(here) must be a list")
        }
        for (index, item) in items.enumerated() {
          variants.append(try variant(item, document, path: here.index(index), planned: &properties))
        }
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not imported"))
      }
    }
    let eventType = event.node["event_type"]?.string ?? "track"
    var object = PropertyConstraints()
    object.types = [.object]
    object.properties = properties
    object.additionalProperties = additional
    object.required = properties.contains { $0.constraints.required }
    if !variants.isEmpty {
      var keywords = SchemaKeywords<PropertyConstraints>()
      keywords.allOf = variants
      object.keywords = keywords
    }
    let parameter = eventType == "identify" || eventType == "group" ? "traits" : "properties"
    let params =
      properties.isEmpty && additional == nil ? [] : [NamedConstraints(name: parameter, constraints: object)]
    let description = variables.text(event.node["description"]?.string ?? rule["description"]?.string)
    let ruleID = rule["id"]?.string.map { " (\($0))" } ?? ""
    switch eventType {
    case "track":
      guard let written = event.node["name"]?.string, !written.isEmpty else {
        throw event.document.error(event.node, "the track event \(event.id) has no name")
      }
      guard let name = variables.resolved(written) else {
        let missing = variables.unresolvedNames(in: written).joined(separator: ", ")
        guard !missing.isEmpty else {
          draft.warn(
            document.warning(
              rule, path, "the rule \(path) is left out: naming its event \(event.id) \(budget.bytesMessage)")
          )
          return
        }
        draft.warn(
          document.warning(
            rule, path,
            "the rule \(path) is left out: its event \(event.id) is named \(written), and neither a RUDDER_<NAME> environment variable nor a .vars.yaml file among the given ones sets \(missing)"
          ))
        return
      }
      let origin = EntryOrigin(
        file: document.file, location: rule.location, path: path, summary: "\"\(name)\"\(ruleID)")
      draft.addCall(
        CatalogueEntry(key: name, method: "track", description: description, params: params, origin: origin))
    case "identify", "group", "page", "screen":
      let origin = EntryOrigin(
        file: document.file, location: rule.location, path: path, summary: "\(eventType)\(ruleID)")
      draft.addMethod(
        CatalogueEntry(key: eventType, description: description, params: params, origin: origin))
    default:
      throw event.document.error(
        event.node,
        "the event \(event.id) has event_type \(eventType): expected track, identify, group, page or screen")
    }
  }

  /// A `variants` item (`type: discriminator`): for the first case whose `match` holds the
  /// discriminator property's value, its properties (with `required`); when none does, `default`'s.
  /// As JSON Schema: `if` the discriminator is one of a case's values `then` its properties, `else`
  /// the next case, the last `else` the default. The variants' properties join the rule's
  /// `planned` properties (not required there), so a closed object allows them.
  private mutating func variant(
    _ node: SourceNode, _ document: SourceDocument, path: JSONPath, planned: inout [NamedConstraints]
  ) throws(ImportError) -> PropertyConstraints {
    guard node.members != nil else { throw document.error(node, "\(path) must be an object") }
    let type = node["type"]?.string ?? "discriminator"
    guard type == "discriminator" else {
      throw document.error(node, "\(path) has type \(type): rudder-cli's variants are of type discriminator")
    }
    guard let reference = node["discriminator"]?.string else {
      throw document.error(node, "\(path) needs discriminator: the property whose value picks the case")
    }
    guard let definition = catalog.resolve(reference, .properties),
      let written = definition.node["name"]?.string, !written.isEmpty
    else {
      throw document.error(node, "\(reference) is not defined in the given files (pass its properties file)")
    }
    let discriminator = variables.text(written) ?? written
    func properties(_ list: SourceNode?, at here: JSONPath) throws(ImportError) -> [NamedConstraints] {
      guard let list else { return [] }
      guard let items = list.elements else { throw document.error(list, "\(here) must be a list") }
      var result: [NamedConstraints] = []
      for (index, item) in items.enumerated() {
        let property = try propertyItem(
          item, document, path: here.index(index), depth: 1, customTypes: [], expanding: false)
        result.append(property)
        var optional = property.constraints
        optional.required = false
        planned = NamedConstraints.merged(
          planned, onto: [NamedConstraints(name: property.name, constraints: optional)])
      }
      return result
    }
    func object(_ properties: [NamedConstraints]) -> PropertyConstraints {
      var object = PropertyConstraints()
      object.properties = properties
      return object
    }
    var otherwise = object(
      try properties(node["default"]?["properties"] ?? node["default"], at: path.key("default")))
    let cases = node["cases"]?.elements ?? []
    guard !cases.isEmpty else { throw document.error(node, "\(path) needs cases, a list") }
    for (index, item) in cases.enumerated().reversed() {
      let here = path.key("cases").index(index)
      for member in item.members ?? [] where ["display_name", "description"].contains(member.key) {
        KeyLedger.leaveOut(member, because: "display names and descriptions of variant cases")
      }
      guard let values = item["match"]?.elements?.compactMap(\.scalar), !values.isEmpty else {
        throw document.error(item, "\(here).match must be a list of values")
      }
      var condition = PropertyConstraints()
      condition.allowed = values
      condition.required = true
      var keywords = SchemaKeywords<PropertyConstraints>()
      keywords.ifSchema = object([NamedConstraints(name: discriminator, constraints: condition)])
      keywords.thenSchema = object(try properties(item["properties"], at: here.key("properties")))
      keywords.elseSchema = otherwise
      otherwise = PropertyConstraints()
      otherwise.keywords = keywords
    }
    return otherwise
  }

  /// One property of a rule: its definition's constraints, `required` and nested `properties`;
  /// `expanding` when it is a definition's, met again at each reference to that definition.
  private mutating func propertyItem(
    _ item: SourceNode, _ document: SourceDocument, path: JSONPath, depth: Int, customTypes: [String],
    expanding: Bool
  ) throws(ImportError) -> NamedConstraints {
    guard let members = item.members else { throw document.error(item, "\(path) must be an object") }
    guard !expanding || spend(item, document, path) else {
      return NamedConstraints(name: "", constraints: PropertyConstraints())
    }
    guard let reference = item["$ref"]?.string ?? item["property"]?.string else {
      throw document.error(item, "\(path) needs $ref (or property): the property it uses")
    }
    guard let definition = catalog.resolve(reference, .properties) else {
      throw document.error(item, "\(reference) is not defined in the given files (pass its properties file)")
    }
    guard let written = definition.node["name"]?.string, !written.isEmpty else {
      throw definition.document.error(definition.node, "the property \(definition.id) has no name")
    }
    let name = variables.text(written) ?? written
    guard depth < SchemaConverter.nestingLimit else {
      draft.warn(
        document.warning(
          item, path,
          "\(path) nests deeper than \(SchemaConverter.nestingLimit) levels: not checked by Tagscope"))
      return NamedConstraints(name: name, constraints: PropertyConstraints())
    }
    var constraints = try definitionConstraints(definition, depth: depth, customTypes: customTypes)
    for member in members {
      let here = path.key(member.key)
      KeyLedger.current?.carry(member)
      switch member.key {
      case "$ref", "property": break
      case "required":
        guard let flag = member.value.bool else {
          throw document.error(member.value, "\(here) must be true or false")
        }
        constraints.required = flag
      case "properties":
        let nested = try nestedProperties(
          member.value, document, path: here, depth: depth, customTypes: customTypes, expanding: expanding)
        constraints.properties = NamedConstraints.merged(nested, onto: constraints.properties ?? [])
      case "additionalProperties", "additional_properties", "allow_unplanned":
        guard let flag = member.value.bool else {
          throw document.error(member.value, "\(here) must be true or false")
        }
        constraints.additionalProperties = flag
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not imported"))
      }
    }
    return NamedConstraints(name: name, constraints: constraints)
  }

  /// A `properties` list: each item's constraints, one level deeper.
  private mutating func nestedProperties(
    _ node: SourceNode, _ document: SourceDocument, path: JSONPath, depth: Int, customTypes: [String],
    expanding: Bool
  ) throws(ImportError) -> [NamedConstraints] {
    guard let items = node.elements else { throw document.error(node, "\(path) must be a list") }
    var nested: [NamedConstraints] = []
    for (index, child) in items.enumerated() {
      let property = try propertyItem(
        child, document, path: path.index(index), depth: depth + 1, customTypes: customTypes,
        expanding: expanding)
      if !property.name.isEmpty || !budget.nodesSpent { nested.append(property) }
    }
    return nested
  }

  /// Spends one node of the import's budget for an expansion at `path`; when none is left, says
  /// so once and returns `false` (the expansion is left out).
  private mutating func spend(_ node: SourceNode, _ document: SourceDocument, _ path: JSONPath) -> Bool {
    guard !budget.spendNode() else { return true }
    if !budgetReported {
      budgetReported = true
      draft.warn(
        document.warning(
          node, path,
          "\(budget.nodesMessage): \(path) and every later expansion of a property or custom type are left out"
        ))
    }
    return false
  }

  /// The constraints a property or custom type definition states: its type(s) and config.
  private mutating func definitionConstraints(
    _ definition: RudderStackCatalog.Definition, depth: Int, customTypes: [String]
  ) throws(ImportError) -> PropertyConstraints {
    let document = definition.document
    var constraints = PropertyConstraints()
    for member in definition.node.members ?? [] {
      let here = definition.path.key(member.key)
      if member.key == "category" {
        KeyLedger.leaveOut(member, because: KeyLedger.categories)
      } else if member.key == "name" {
        KeyLedger.leaveOut(member, because: "display names of definitions")
      } else if member.key != "id" {
        KeyLedger.current?.carry(member)
      }
      switch member.key {
      case "id", "name", "category": break
      case "description": constraints.description = variables.text(member.value.string)
      case "type", "types":
        let words = (member.value.elements ?? [member.value]).compactMap(\.string)
        for word in words {
          if RudderStackCatalog.isReference(word, .customTypes) {
            let custom = try customType(word, member, document, here, depth: depth, customTypes: customTypes)
            constraints = constraints.merged(onto: custom)
            continue
          }
          for part in word.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if let type = ValueType(rawValue: part) {
              if !constraints.types.contains(type) { constraints.types.append(type) }
            } else {
              draft.warn(
                document.warning(member, here, "type \"\(part)\" (\(here)) is not checked by Tagscope"))
            }
          }
        }
      case "propConfig", "config":
        try config(
          member.value, document, path: here, into: &constraints, depth: depth, customTypes: customTypes)
      case "item_type", "item_types", "itemTypes":
        try itemTypes(
          member, document, path: here, into: &constraints, depth: depth, customTypes: customTypes)
      case "properties":
        constraints.properties = try nestedProperties(
          member.value, document, path: here, depth: depth, customTypes: customTypes, expanding: true)
      case "variants":
        draft.warn(document.warning(member, here, "variants (\(here)) is not checked by Tagscope"))
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not imported"))
      }
    }
    return constraints
  }

  private mutating func customType(
    _ reference: String, _ member: SourceNode.Member, _ document: SourceDocument, _ path: JSONPath,
    depth: Int,
    customTypes: [String]
  ) throws(ImportError) -> PropertyConstraints {
    guard let definition = catalog.resolve(reference, .customTypes) else {
      draft.warn(
        document.warning(
          member, path,
          "the custom type \(reference) (\(path)) is not among the given files: not checked by Tagscope"))
      return PropertyConstraints()
    }
    guard !customTypes.contains(definition.id) else {
      draft.warn(
        document.warning(
          member, path, "the custom type \(reference) (\(path)) contains itself: not checked further"))
      return PropertyConstraints()
    }
    guard customTypes.count < SchemaConverter.nestingLimit else {
      draft.warn(
        document.warning(
          member, path,
          "the custom type \(reference) (\(path)) is \(customTypes.count + 1) custom types deep in a chain, deeper than \(SchemaConverter.nestingLimit): not checked further"
        ))
      return PropertyConstraints()
    }
    guard spend(definition.node, definition.document, definition.path) else { return PropertyConstraints() }
    return try definitionConstraints(definition, depth: depth, customTypes: customTypes + [definition.id])
  }

  private mutating func itemTypes(
    _ member: SourceNode.Member, _ document: SourceDocument, path: JSONPath,
    into constraints: inout PropertyConstraints,
    depth: Int, customTypes: [String]
  ) throws(ImportError) {
    var items = constraints.items ?? PropertyConstraints()
    for word in (member.value.elements ?? [member.value]).compactMap(\.string) {
      if RudderStackCatalog.isReference(word, .customTypes) {
        items = items.merged(
          onto: try customType(word, member, document, path, depth: depth + 1, customTypes: customTypes))
      } else if let type = ValueType(rawValue: word) {
        if !items.types.contains(type) { items.types.append(type) }
      } else {
        draft.warn(
          document.warning(member, path, "item type \"\(word)\" (\(path)) is not checked by Tagscope"))
      }
    }
    constraints.items = items
  }

  /// `propConfig` (v0.1, camelCase) or `config` (v1, snake_case): the validation rules, the
  /// keywords of rudder-cli's `rules/config/options.go` in either spelling.
  private mutating func config(
    _ node: SourceNode, _ document: SourceDocument, path: JSONPath,
    into constraints: inout PropertyConstraints,
    depth: Int, customTypes: [String]
  ) throws(ImportError) {
    guard let members = node.members else { throw document.error(node, "\(path) must be an object") }
    var keywords = constraints.keywords ?? SchemaKeywords()
    defer { constraints.keywords = keywords }
    for member in members {
      let here = path.key(member.key)
      let value = member.value
      KeyLedger.current?.carry(member)
      switch member.key {
      case "enum":
        let values = value.elements?.compactMap(\.scalar)
        if let values, values.count == value.elements?.count {
          constraints.allowed = values
        } else {
          draft.warn(
            document.warning(member, here, "enum with objects or arrays (\(here)) is not checked by Tagscope")
          )
        }
      case "pattern":
        if let source = value.string, (try? PlanPattern(source)) != nil {
          constraints.pattern = source
        } else {
          draft.warn(document.warning(member, here, "pattern (\(here)) is not checked by Tagscope"))
        }
      case "minimum", "maximum":
        guard let number = value.exactNumber else { throw document.error(value, "\(here) must be a number") }
        if member.key == "minimum" {
          constraints.minimumValue = number
        } else {
          constraints.maximumValue = number
        }
      case "minLength", "min_length", "maxLength", "max_length":
        guard let number = value.number, number >= 0, number == number.rounded(), number < 1e15 else {
          throw document.error(value, "\(here) must be a whole number")
        }
        if member.key.hasPrefix("min") {
          constraints.minLength = Int(number)
        } else {
          constraints.maxLength = Int(number)
        }
      case "format":
        if let word = value.string, let format = ValueFormat(rawValue: word) {
          constraints.format = format
        } else {
          draft.warn(
            document.warning(
              member, here, "format \(value.string ?? "") (\(here)) is not checked by Tagscope"))
        }
      case "itemTypes", "item_types", "item_type":
        try itemTypes(
          member, document, path: here, into: &constraints, depth: depth, customTypes: customTypes)
      case "multipleOf", "multiple_of":
        guard let number = value.number, number > 0 else {
          throw document.error(value, "\(here) must be a number above 0")
        }
        keywords.multipleOf = number
      case "exclusiveMinimum", "exclusive_minimum", "exclusiveMaximum", "exclusive_maximum":
        guard let number = value.exactNumber else { throw document.error(value, "\(here) must be a number") }
        if member.key.lowercased().contains("min") {
          keywords.exclusiveMinimum = number
        } else {
          keywords.exclusiveMaximum = number
        }
      case "minItems", "min_items", "maxItems", "max_items":
        guard let number = value.number, number >= 0, number == number.rounded(), number < 1e15 else {
          throw document.error(value, "\(here) must be a whole number")
        }
        if member.key.hasPrefix("min") {
          keywords.minItems = Int(number)
        } else {
          keywords.maxItems = Int(number)
        }
      case "uniqueItems", "unique_items":
        guard let flag = value.bool else { throw document.error(value, "\(here) must be true or false") }
        keywords.uniqueItems = flag
      case "additionalProperties", "additional_properties":
        guard let flag = value.bool else { throw document.error(value, "\(here) must be true or false") }
        constraints.additionalProperties = flag
      default:
        draft.warn(document.warning(member, here, "\(member.key) (\(here)) is not checked by Tagscope"))
      }
    }
  }
}
