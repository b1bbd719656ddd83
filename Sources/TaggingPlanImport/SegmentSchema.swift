import TaggingPlan

/// What Segment writes into its rules' JSON Schemas beyond JSON Schema, made plain before they are
/// converted: the keys that describe and do not constrain (`labels` and `eventMetadata` on a rule,
/// `key`, the property's own name, on a property) are dropped, and Segment's `any` type (its
/// "Any" property type, `"type": ["any"]`) becomes no type constraint, so they raise no "not
/// checked" warning.
enum SegmentSchema {
  static let annotations: Set<String> = ["labels", "eventMetadata", "key"]

  /// Keywords whose value is a schema, and those whose value is a map or a list of schemas.
  private static let schemaValued: Set<String> = [
    "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
    "additionalItems", "unevaluatedProperties", "unevaluatedItems",
  ]
  private static let schemaMaps: Set<String> = [
    "properties", "definitions", "$defs", "patternProperties", "dependentSchemas",
  ]
  private static let schemaLists: Set<String> = ["anyOf", "oneOf", "allOf", "prefixItems", "items"]

  /// `schema` without Segment's annotations and `any` types, at every depth where a schema sits (a
  /// property named `key` stays: it is a name there, not a keyword). It looks at shapes only:
  /// what it reads is carried when the converter uses it.
  static func normalized(_ schema: SourceNode, depth: Int = 0) -> SourceNode {
    guard let members = schema.objectMembers, depth < DocumentReader.maximumDepth else { return schema }
    let kept = members.compactMap { member -> SourceNode.Member? in
      if annotations.contains(member.key) {
        KeyLedger.leaveOut(member, because: "Segment's annotations (labels, eventMetadata, a property's key)")
        return nil
      }
      if member.key == "type" && isAny(member.value) {
        KeyLedger.current?.carry(member)
        return nil
      }
      var member = member
      if schemaValued.contains(member.key), member.value.objectMembers != nil {
        member.value = normalized(member.value, depth: depth + 1)
      } else if schemaMaps.contains(member.key), let entries = member.value.objectMembers {
        let values = entries.map { entry in
          SourceNode.Member(
            key: entry.key, keyLocation: entry.keyLocation, value: normalized(entry.value, depth: depth + 1),
            ordinal: entry.ordinal)
        }
        member.value = SourceNode(.object(values), at: member.value.location)
      } else if schemaLists.contains(member.key), let list = member.value.arrayElements {
        member.value = SourceNode(
          .array(list.map { normalized($0, depth: depth + 1) }), at: member.value.location)
      }
      return member
    }
    var plain = SourceNode(.object(kept), at: schema.location)
    plain.owner = schema.owner  // read by the converter: the key holding the schema is carried
    return plain
  }

  /// Whether a `type` value names Segment's `any` (alone or among other types).
  private static func isAny(_ type: SourceNode) -> Bool {
    if type.stringShape == "any" { return true }
    return type.arrayElements?.contains { $0.stringShape == "any" } ?? false
  }
}
