import AnalyticsHub
import TaggingPlan

extension SchemaConverter {
  /// Converts `member` into `keywords` when it is one of the rarer keywords (``SchemaKeywords``);
  /// `false` when it is another.
  mutating func keyword(
    _ member: SourceNode.Member, _ path: JSONPath, depth: Int,
    into keywords: inout SchemaKeywords<PropertyConstraints>
  ) -> Bool {
    let value = member.value
    switch member.key {
    case "multipleOf":
      if let number = value.number, number > 0 {
        keywords.multipleOf = number
        if let exact = value.exactNumber, !NumberOrder.same(exact, .double(number)) {
          // A divisor past 2^53 is held as a double: said, not rounded silently.
          warn(
            member, path,
            "multipleOf \(exact.displayText) (\(path)) is checked as its nearest double, \(NumberText.yaml(.double(number)))"
          )
        }
      } else {
        warn(member, path, "multipleOf (\(path)) must be a number above 0: it is not checked by Tagscope")
      }
    case "exclusiveMinimum", "exclusiveMaximum":
      // A draft-04 boolean turns `minimum`/`maximum` exclusive (``applyExclusiveFlags``).
      if value.bool != nil { return true }
      guard let number = value.exactNumber else {
        warn(member, path, "\(member.key) (\(path)) must be a number: it is not checked by Tagscope")
        return true
      }
      if member.key == "exclusiveMinimum" {
        keywords.exclusiveMinimum = number
      } else {
        keywords.exclusiveMaximum = number
      }
    case "minItems", "maxItems", "minContains", "maxContains", "minProperties", "maxProperties":
      guard let number = value.number, number >= 0, number == number.rounded(), number < 1e15 else {
        warn(member, path, "\(member.key) (\(path)) must be a whole number: it is not checked by Tagscope")
        return true
      }
      let count = Int(number)
      switch member.key {
      case "minItems": keywords.minItems = count
      case "maxItems": keywords.maxItems = count
      case "minContains": keywords.minContains = count
      case "maxContains": keywords.maxContains = count
      case "minProperties": keywords.minProperties = count
      default: keywords.maxProperties = count
      }
    case "uniqueItems":
      if let flag = value.bool {
        keywords.uniqueItems = flag
      } else {
        warn(member, path, "uniqueItems (\(path)) must be true or false: it is not checked by Tagscope")
      }
    case "contains": keywords.contains = subschema(value, path, depth: depth)
    case "propertyNames": keywords.propertyNames = subschema(value, path, depth: depth)
    case "unevaluatedProperties": keywords.unevaluatedSchema = subschema(value, path, depth: depth)
    case "unevaluatedItems": keywords.unevaluatedItems = subschema(value, path, depth: depth)
    case "not": keywords.not = subschema(value, path, depth: depth)
    case "if": keywords.ifSchema = subschema(value, path, depth: depth)
    case "then": keywords.thenSchema = subschema(value, path, depth: depth)
    case "else": keywords.elseSchema = subschema(value, path, depth: depth)
    case "allOf", "prefixItems":
      guard let elements = value.elements else {
        warn(member, path, "\(member.key) (\(path)) must be a list: it is not checked by Tagscope")
        return true
      }
      let schemas = subschemas(elements, path, depth: depth)
      if member.key == "allOf" { keywords.allOf = schemas } else { keywords.prefixItems = schemas }
    case "additionalProperties":
      guard let members = value.members,
        !members.allSatisfy({ Self.annotations.contains($0.key) || $0.key == "description" })
      else { return false }
      keywords.additionalSchema = subschema(value, path, depth: depth)
    case "patternProperties":
      keywords.patternProperties = namedSchemas(member, path, depth: depth).compactMap { name, schema in
        do {
          return PatternSchema(pattern: try PlanPattern(name), schema: schema)
        } catch {
          warn(
            member, path.key(name),
            "patternProperties \"\(name)\" (\(path)) is not checked by Tagscope: \(error)")
          return nil
        }
      }
    case "dependentSchemas":
      keywords.dependentSchemas = namedSchemas(member, path, depth: depth).map {
        NamedSchema(name: $0.0, schema: $0.1)
      }
    case "dependentRequired", "dependencies":
      dependencies(member, path, depth: depth, into: &keywords)
    default:
      return false
    }
    return true
  }

  /// `dependentRequired` (names) and draft-07 `dependencies` (names or a schema, per key).
  private mutating func dependencies(
    _ member: SourceNode.Member, _ path: JSONPath, depth: Int,
    into keywords: inout SchemaKeywords<PropertyConstraints>
  ) {
    guard let members = member.value.members else {
      warn(member, path, "\(member.key) (\(path)) must be an object: it is not checked by Tagscope")
      return
    }
    KeyLedger.current?.carry(members)
    for entry in members {
      let here = path.key(entry.key)
      if let names = entry.value.elements, names.allSatisfy({ $0.string != nil }) {
        keywords.dependentRequired.append(
          DependentNames(name: entry.key, required: names.compactMap(\.string)))
      } else if member.key == "dependencies", entry.value.members != nil || entry.value.bool != nil {
        keywords.dependentSchemas.append(
          NamedSchema(name: entry.key, schema: subschema(entry.value, here, depth: depth)))
      } else {
        warn(
          entry, here,
          "\(member.key) of \(entry.key) (\(here)) is not a list of names: not checked by Tagscope")
      }
    }
  }

  /// The members of an object of schemas (`patternProperties`, `dependentSchemas`), converted.
  private mutating func namedSchemas(
    _ member: SourceNode.Member, _ path: JSONPath, depth: Int
  ) -> [(String, PropertyConstraints)] {
    guard let members = member.value.members else {
      warn(member, path, "\(member.key) (\(path)) must be an object: it is not checked by Tagscope")
      return []
    }
    KeyLedger.current?.carry(members)
    return members.map { ($0.key, subschema($0.value, path.key($0.key), depth: depth)) }
  }

  /// The schemas of a list (`allOf`, `prefixItems`), each at its index.
  mutating func subschemas(_ elements: [SourceNode], _ path: JSONPath, depth: Int) -> [PropertyConstraints] {
    elements.indices.map { subschema(elements[$0], path.index($0), depth: depth) }
  }

  /// A schema inside another, one level deeper.
  mutating func subschema(_ node: SourceNode, _ path: JSONPath, depth: Int) -> PropertyConstraints {
    guard depth + 1 < Self.nestingLimit else {
      warn(
        node.location, path, "\(path) nests deeper than \(Self.nestingLimit) levels: not checked by Tagscope")
      return PropertyConstraints()
    }
    return constraints(node, path: path, depth: depth + 1)
  }

  /// Draft-04's `exclusiveMinimum: true` / `exclusiveMaximum: true` make `minimum` / `maximum`
  /// exclusive bounds.
  func applyExclusiveFlags(
    _ members: [SourceNode.Member], to result: inout PropertyConstraints,
    keywords: inout SchemaKeywords<PropertyConstraints>
  ) {
    for member in members where member.value.bool == true {
      if member.key == "exclusiveMinimum", let minimum = result.minimumValue {
        keywords.exclusiveMinimum = minimum
        result.minimum = nil
      } else if member.key == "exclusiveMaximum", let maximum = result.maximumValue {
        keywords.exclusiveMaximum = maximum
        result.maximum = nil
      }
    }
  }

  /// A JSON value as a property value (`enum` and `const` members that are objects or arrays).
  static func value(_ node: SourceNode) -> PropertyValue {
    node.use()
    switch node.value {
    case .object(let members):
      KeyLedger.current?.carry(members)
      return .object(Properties(members.map { ($0.key, value($0.value)) }))
    case .array(let elements): return .array(elements.map(value))
    case .string(let text): return .string(text)
    case .number(.double(let number)):
      return number == number.rounded() && abs(number) < 9e15 ? .int(Int(number)) : .double(number)
    case .number(let number): return number
    case .bool(let flag): return .bool(flag)
    case .null: return .null
    }
  }
}
