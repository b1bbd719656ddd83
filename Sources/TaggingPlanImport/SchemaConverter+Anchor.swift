extension SchemaConverter {
  /// The subschema a plain-name fragment names (`#foo`) and its path: the first, depth first,
  /// with `"$anchor": "foo"` (2019-09 and later) or `"$id": "#foo"` (draft-07). `$id` base URIs
  /// are not followed: a document's anchors are one namespace. `nil` for a JSON pointer (`#/…`),
  /// a name no subschema has, or a document past ``nodeBudget`` nodes before it is found.
  static func resolve(anchor fragment: String, in document: SourceNode) -> (SourceNode, JSONPath)? {
    let name = fragment.dropFirst()
    guard fragment.hasPrefix("#"), !name.isEmpty, !name.hasPrefix("/") else { return nil }
    var pending: [(node: SourceNode, path: JSONPath)] = [(document, .root)]
    var visited = 0
    while let (node, path) = pending.popLast() {
      visited += 1
      guard visited <= nodeBudget else { return nil }
      if let members = node.members {
        let named = members.contains { member in
          (member.key == "$anchor" && member.value.string == String(name))
            || (member.key == "$id" && member.value.string == fragment)
        }
        if named { return (node, path) }
        // Values of `enum` and `const` are data, not schemas.
        for member in members.reversed() where member.key != "enum" && member.key != "const" {
          pending.append((member.value, path.key(member.key)))
        }
      } else if let elements = node.elements {
        for (index, element) in elements.enumerated().reversed() {
          pending.append((element, path.index(index)))
        }
      }
    }
    return nil
  }
}
