import Foundation
import TaggingPlan

/// Converts JSON Schema (draft-04 to 2020-12) into ``PropertyConstraints``: the keywords Tagscope
/// checks are carried, `$ref`s within the document resolved, `anyOf`/`oneOf` of bare types folded
/// into a type list; every other keyword becomes an ``ImportWarning`` with its place, never
/// silently dropped. Annotations (`title`, `$comment`, `examples`, `default`…) constrain nothing
/// and are left out without a warning.
struct SchemaConverter {
  /// How deep `properties` and `items` may nest: the plan loader's limit.
  static let nestingLimit = 32
  /// How many conversions may be under way at once, nested schemas and `$ref` chains together:
  /// the recursion stays well within a secondary thread's 512 KiB stack.
  static let depthLimit = 64

  /// Keywords that describe and do not constrain.
  static let annotations: Set<String> = [
    "$schema", "$id", "id", "title", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
    "$anchor", "$dynamicAnchor", "$recursiveAnchor", "$vocabulary", "definitions", "$defs",
  ]

  /// The annotations Tagscope leaves out (the other ``annotations`` locate schemas: `$id`,
  /// `$anchor`, `definitions`…).
  static let descriptive: Set<String> = [
    "title", "$comment", "examples", "default", "deprecated", "readOnly", "writeOnly",
  ]

  /// The source file, for warnings.
  let file: String
  /// The schema document `#…` references point into (the file's root, or the schema embedded
  /// in it: a Segment rule's `jsonSchema`).
  let document: SourceNode
  /// Where `document` is in the file.
  let base: JSONPath
  /// Resolves `$ref`s into `document` (shared by the conversions of one document's schemas).
  let pointers: SchemaPointers
  /// The import's budget of nodes reached through `$ref`s (shared by all its conversions).
  let budget: ExpansionBudget
  /// What was not carried, in the order met.
  private(set) var warnings: [ImportWarning] = []
  /// The paths of the `$ref` targets being expanded, to stop at one that refers to itself.
  private var references: [String] = []
  /// Whether this conversion has said the import's budget is spent.
  private var budgetReported = false
  /// The base URI `$ref`s resolve against here (RFC 3986): the nearest `$id` around.
  private var baseURI = SchemaURI("")
  /// The schema resources entered on the way here, outermost first (`$dynamicRef`'s scope).
  private var scopes: [String] = []
  private var nesting = 0

  /// A converter; `pointers`, when given, resolves into `document` with what it has already
  /// resolved for the document's other schemas; `budget` is the import's (a converter's own when
  /// not given).
  init(
    file: String, document: SourceNode, at base: JSONPath = .root, pointers: SchemaPointers? = nil,
    budget: ExpansionBudget = ExpansionBudget(sourceBytes: 0)
  ) {
    self.file = file
    self.document = document
    self.base = base
    self.pointers = pointers ?? SchemaPointers(document: document)
    self.budget = budget
  }

  /// The constraints `schema` (at `path`, `depth` levels below a call parameter) puts on a value;
  /// members named in `ignoring` are not looked at (`self` of an Iglu schema…).
  mutating func constraints(
    _ schema: SourceNode, path: JSONPath, depth: Int = 0, ignoring: Set<String> = []
  ) -> PropertyConstraints {
    guard withinBounds(schema, path) else { return PropertyConstraints() }
    let (outerBase, outerScopes) = (baseURI, scopes.count)
    if nesting == 0 {
      // A conversion starts at the root (its `$id` applies below) or inside the document.
      baseURI = schema.location == document.location ? SchemaURI("") : pointers.rootBase
      scopes = []
    }
    nesting += 1
    defer {
      nesting -= 1
      baseURI = outerBase
      scopes.removeLast(scopes.count - min(outerScopes, scopes.count))
    }
    guard let members = schema.members else {
      if schema.bool == false { return .never }
      if schema.bool == nil {
        warn(schema.location, path, "\(schema.kindDescription) (\(path)) is not a schema: left unconstrained")
      }
      return PropertyConstraints()
    }
    baseURI = SchemaPointers.effectiveBase(of: schema, around: baseURI, legacy: pointers.legacyRefs)
    if scopes.last != baseURI.resource { scopes.append(baseURI.resource) }
    if let reference = schema.member("$ref") ?? schema.member("$dynamicRef") ?? schema.member("$recursiveRef")
    {
      return resolved(reference, siblings: members, path: path, depth: depth, ignoring: ignoring)
    }
    var result = PropertyConstraints()
    var keywords = SchemaKeywords<PropertyConstraints>()
    var requiredNames: [String] = []
    var tuple: [PropertyConstraints]?
    var additionalItems: PropertyConstraints?
    let ledger = KeyLedger.current
    for member in members where !ignoring.contains(member.key) {
      // Carried when its value is read below (or warned about): a keyword of a kind not read
      // is reported, not carried by being looked at.
      let here = path.key(member.key)
      let value = member.value
      if keyword(member, here, depth: depth, into: &keywords) { continue }
      switch member.key {
      case "type": result.types = types(value, here, into: result.types)
      case "required":
        if let flag = value.bool {
          result.required = flag
        } else if let names = value.elements, names.allSatisfy({ $0.string != nil }) {
          requiredNames = names.compactMap(\.string)
        } else {
          warn(member, here, "required (\(here)) must be a list of names: it is not checked by Tagscope")
        }
      case "enum":
        let scalars = value.elements?.compactMap(\.scalar)
        if let scalars, scalars.count == value.elements?.count {
          result.allowed = scalars
        } else if let elements = value.elements {
          keywords.enumValues = elements.map(Self.value)
        } else {
          warn(member, here, "enum (\(here)) must be a list: it is not checked by Tagscope")
        }
      case "const":
        if let scalar = value.scalar {
          result.constant = scalar
        } else {
          keywords.constValue = Self.value(value)
        }
      case "pattern": result.pattern = pattern(member, here)
      case "format":
        if let word = value.string, let format = ValueFormat(rawValue: word) {
          result.format = format
        } else {
          warn(
            member, here,
            "format \(value.string.map { "\"\($0)\"" } ?? value.kindDescription) (\(here)) is not checked by Tagscope"
          )
        }
      case "minimum", "maximum":
        guard let number = value.exactNumber else {
          warn(member, here, "\(member.key) (\(here)) must be a number: it is not checked by Tagscope")
          continue
        }
        if member.key == "minimum" { result.minimumValue = number } else { result.maximumValue = number }
      case "minLength", "maxLength":
        guard let number = value.number, number >= 0, number == number.rounded(), number < 1e15 else {
          warn(member, here, "\(member.key) (\(here)) must be a whole number: it is not checked by Tagscope")
          continue
        }
        if member.key == "minLength" {
          result.minLength = Int(number)
        } else {
          result.maxLength = Int(number)
        }
      case "additionalItems": additionalItems = items(member, here, depth: depth)
      case "description": result.description = value.string.flatMap { $0.isEmpty ? nil : $0 }
      case "properties": result.properties = properties(value, here, depth: depth)
      case "additionalProperties": result.additionalProperties = additionalProperties(member, here)
      case "items":
        if let elements = value.elements {
          tuple = subschemas(elements, here, depth: depth)
        } else {
          result.items = items(member, here, depth: depth)
        }
      case "anyOf", "oneOf":
        if let folded = foldedTypes(value, exclusive: member.key == "oneOf") {
          result.types = result.types.isEmpty ? folded : result.types.filter(folded.contains)
        } else if let elements = value.elements, !elements.isEmpty {
          let branches = subschemas(elements, here, depth: depth)
          if member.key == "anyOf" { keywords.anyOf = branches } else { keywords.oneOf = branches }
        } else {
          warn(
            member, here, "\(member.key) (\(here)) must be a non-empty list: it is not checked by Tagscope")
        }
      default:
        // Asked here, after the keywords read: no annotation is one of them, and most members are.
        if Self.descriptive.contains(member.key) {
          ledger?.ignore(member, because: KeyLedger.annotations)
          continue
        }
        if Self.annotations.contains(member.key) {
          // `$id`, `$anchor`, `definitions`…: they locate the schemas references reach.
          ledger?.carry(member)
          continue
        }
        warn(member, here, "\(member.key) (\(here)) is not checked by Tagscope")
      }
    }
    if !requiredNames.isEmpty { applyRequired(requiredNames, to: &result) }
    // Draft-07 `items` as a list is 2020-12's `prefixItems`, its `additionalItems` then `items`;
    // without that list, `additionalItems` constrains nothing.
    if let tuple {
      keywords.prefixItems = tuple
      result.items = additionalItems
    }
    applyExclusiveFlags(members, to: &result, keywords: &keywords)
    result.keywords = keywords
    return result
  }

  /// Whether `schema` may be converted: not deeper than ``depthLimit`` conversions (nesting and
  /// `$ref` chains together), and, when reached through a `$ref`, within the import's budget;
  /// when not, a warning says why (the budget's once per conversion).
  private mutating func withinBounds(_ schema: SourceNode, _ path: JSONPath) -> Bool {
    guard nesting < Self.depthLimit else {
      warn(
        schema.location, path,
        "the schema (\(path)) is \(nesting) schemas deep, \(references.count) of them through a $ref chain: deeper than \(Self.depthLimit), it is left unconstrained"
      )
      return false
    }
    guard references.isEmpty || budget.spendNode() else {
      if !budgetReported {
        budgetReported = true
        warn(
          schema.location, path,
          "\(budget.nodesMessage): the schema (\(path)) and the rest of this event's references are left unconstrained"
        )
      }
      return false
    }
    return true
  }

  /// Marks the properties `names` lists required, adding a property for a name with no schema.
  private func applyRequired(_ names: [String], to result: inout PropertyConstraints) {
    var properties = result.properties ?? []
    // By name, first of each: one lookup per required name (a scan each was quadratic).
    var positions: [String: Int] = [:]
    for (index, property) in properties.enumerated() where positions[property.name] == nil {
      positions[property.name] = index
    }
    for name in names {
      if let index = positions[name] {
        properties[index].constraints.required = true
      } else {
        var constraints = PropertyConstraints()
        constraints.required = true
        positions[name] = properties.count
        properties.append(NamedConstraints(name: name, constraints: constraints))
      }
    }
    result.properties = properties
  }

  private mutating func types(_ node: SourceNode, _ path: JSONPath, into current: [ValueType]) -> [ValueType]
  {
    let words: [SourceNode] = node.elements ?? [node]
    var result: [ValueType] = []
    for word in words {
      guard let text = word.string, let type = ValueType(rawValue: text) else {
        warn(
          word.location, path,
          "type \(word.string.map { "\"\($0)\"" } ?? word.kindDescription) (\(path)) is not checked by Tagscope"
        )
        return current
      }
      if !result.contains(type) { result.append(type) }
    }
    return result
  }

  private mutating func pattern(_ member: SourceNode.Member, _ path: JSONPath) -> String? {
    guard let source = member.value.string else {
      warn(member, path, "pattern (\(path)) must be a string: it is not checked by Tagscope")
      return nil
    }
    do {
      _ = try PlanPattern(source)
      return source
    } catch {
      warn(member, path, "pattern (\(path)) is not checked by Tagscope: \(error)")
      return nil
    }
  }

  private mutating func properties(_ node: SourceNode, _ path: JSONPath, depth: Int) -> [NamedConstraints]? {
    guard let members = node.members else {
      warn(node.location, path, "properties (\(path)) must be an object: it is not checked by Tagscope")
      return nil
    }
    guard depth + 1 < Self.nestingLimit else {
      warn(
        node.location, path,
        "properties (\(path)) nest deeper than \(Self.nestingLimit) levels: not checked by Tagscope")
      return nil
    }
    KeyLedger.current?.carry(members)
    return members.map {
      NamedConstraints(
        name: $0.key, constraints: constraints($0.value, path: path.key($0.key), depth: depth + 1))
    }
  }

  private mutating func additionalProperties(_ member: SourceNode.Member, _ path: JSONPath) -> Bool? {
    if let flag = member.value.bool { return flag }
    if let members = member.value.members,
      members.allSatisfy({ Self.annotations.contains($0.key) || $0.key == "description" })
    {
      return true
    }
    warn(
      member, path,
      "additionalProperties with a schema (\(path)) is not checked by Tagscope: other properties are allowed")
    return true
  }

  mutating func items(_ member: SourceNode.Member, _ path: JSONPath, depth: Int)
    -> PropertyConstraints?
  {
    let value = member.value
    // `true` is `{}`: every element allowed, and evaluated (for `unevaluatedItems`).
    if value.bool == true { return PropertyConstraints() }
    if value.bool == false { return .never }
    guard value.members != nil else {
      warn(member, path, "items \(value.kindDescription) (\(path)) is not checked by Tagscope")
      return nil
    }
    guard depth + 1 < Self.nestingLimit else {
      warn(
        member, path, "items (\(path)) nest deeper than \(Self.nestingLimit) levels: not checked by Tagscope")
      return nil
    }
    return constraints(value, path: path, depth: depth + 1)
  }

  /// The types of `anyOf`/`oneOf` branches that are each only `{type: …}` (and annotations); for
  /// `oneOf` (`exclusive`), only when no value can have two of them (not integer with number).
  private func foldedTypes(_ node: SourceNode, exclusive: Bool) -> [ValueType]? {
    guard let branches = node.elements, !branches.isEmpty else { return nil }
    var types: [ValueType] = []
    for branch in branches {
      guard let members = branch.members, let type = branch["type"],
        members.allSatisfy({
          $0.key == "type" || $0.key == "description" || Self.annotations.contains($0.key)
        })
      else { return nil }
      for word in type.elements ?? [type] {
        guard let text = word.string, let valueType = ValueType(rawValue: text) else { return nil }
        if types.contains(valueType) {
          if exclusive { return nil }
        } else {
          types.append(valueType)
        }
      }
    }
    if exclusive, types.contains(.integer), types.contains(.number) { return nil }
    return types
  }

  /// A schema with `$ref`: what it points to, then its other keywords on top.
  private mutating func resolved(
    _ reference: SourceNode.Member, siblings: [SourceNode.Member], path: JSONPath, depth: Int,
    ignoring: Set<String>
  ) -> PropertyConstraints {
    let keyword = reference.key
    let here = path.key(keyword)
    var referenced = PropertyConstraints()
    if let target = reference.value.string {
      let uri = baseURI.resolving(target)
      let found: SchemaPointers.Target?
      switch keyword {
      case "$dynamicRef": found = pointers.dynamicTarget(uri, scopes: scopes)
      case "$recursiveRef": found = pointers.recursiveTarget(uri, scopes: scopes)
      default: found = pointers.target(uri)
      }
      if let found, references.contains(found.path.description) {
        warn(
          reference, here,
          "\(keyword) \"\(target)\" (\(here)) refers to itself: the property is left unconstrained")
      } else if let found {
        references.append(found.path.description)
        let outer = baseURI
        baseURI = found.base
        referenced = constraints(
          found.node, path: JSONPath(self.base.components + found.path.components), depth: depth)
        baseURI = outer
        references.removeLast()
      } else if !pointers.holds(uri) {
        warn(
          reference, here,
          "\(keyword) \"\(target)\" (\(here)) is outside the document: the property is not checked by Tagscope"
        )
      } else {
        warn(
          reference, here,
          "\(keyword) \"\(target)\" (\(here)) points to nothing in the document: the property is left unconstrained"
        )
      }
    } else {
      warn(reference, here, "\(keyword) (\(here)) must be a string: the property is left unconstrained")
    }
    let others = siblings.filter { $0.key != keyword && $0.key != "$id" && !ignoring.contains($0.key) }
    guard !others.isEmpty else { return referenced }
    let overlay = constraints(
      SourceNode(.object(others), at: reference.keyLocation), path: path, depth: depth, ignoring: ignoring)
    return PropertyConstraints.conjoined(overlay, referenced)
  }

  mutating func warn(_ member: SourceNode.Member, _ path: JSONPath, _ message: String) {
    warn(member.keyLocation, path, message)
  }

  mutating func warn(_ location: SourceLocation, _ path: JSONPath, _ message: String) {
    warnings.append(ImportWarning(file: file, location: location, path: path, message: message))
  }
}
