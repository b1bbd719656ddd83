import TaggingPlan

/// The keys Segment writes into its rules' JSON Schemas to describe, not to constrain: `labels`
/// and `eventMetadata` on a rule, `key` (the property's own name) on a property. A schema
/// without them converts without "not checked" warnings about them.
enum SegmentAnnotations {
  static let keys: Set<String> = ["labels", "eventMetadata", "key"]

  /// Keywords whose value is a schema, and those whose value is a map or a list of schemas.
  private static let schemaValued: Set<String> = [
    "items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
    "additionalItems", "unevaluatedProperties", "unevaluatedItems",
  ]
  private static let schemaMaps: Set<String> = [
    "properties", "definitions", "$defs", "patternProperties", "dependentSchemas",
  ]
  private static let schemaLists: Set<String> = ["anyOf", "oneOf", "allOf", "prefixItems", "items"]

  /// `schema` without Segment's annotation keys, at every depth where a schema sits (a property
  /// named `key` stays: it is a name there, not a keyword).
  static func stripped(_ schema: SourceNode, depth: Int = 0) -> SourceNode {
    guard let members = schema.members, depth < DocumentReader.maximumDepth else { return schema }
    let kept = members.compactMap { member -> SourceNode.Member? in
      if keys.contains(member.key) { return nil }
      var member = member
      if schemaValued.contains(member.key), member.value.members != nil {
        member.value = stripped(member.value, depth: depth + 1)
      } else if schemaMaps.contains(member.key), let entries = member.value.members {
        let values = entries.map { entry in
          SourceNode.Member(
            key: entry.key, keyLocation: entry.keyLocation, value: stripped(entry.value, depth: depth + 1))
        }
        member.value = SourceNode(.object(values), at: member.value.location)
      } else if schemaLists.contains(member.key), let list = member.value.elements {
        member.value = SourceNode(
          .array(list.map { stripped($0, depth: depth + 1) }), at: member.value.location)
      }
      return member
    }
    return SourceNode(.object(kept), at: schema.location)
  }
}
