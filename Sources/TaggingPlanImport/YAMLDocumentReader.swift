import AnalyticsHub
import TaggingPlan

/// Reads a YAML document into a ``SourceNode`` tree with libyaml (through `YAMLTree`, the plan
/// loader's composer), each value at the line and column libyaml marks; nesting is bounded by
/// ``DocumentReader/maximumDepth``, and what its aliases expand to by `YAMLExpansionBudget`.
enum YAMLDocumentReader {
  /// The root value of `text`; errors name `file` and the place of the problem.
  static func read(_ text: String, file: String) throws(ImportError) -> SourceNode {
    var ordinals = KeyOrdinals()
    return try read(text, file: file, ordinals: &ordinals)
  }

  /// The root value of `text`, its keys numbered by `ordinals`.
  static func read(_ text: String, file: String, ordinals: inout KeyOrdinals) throws(ImportError)
    -> SourceNode
  {
    let tree: YAMLTree?
    do {
      tree = try YAMLTree.compose(text)
    } catch {
      throw describe(error, file: file)
    }
    guard let tree else { throw ImportError(file: file, message: "the file is empty") }
    do {
      try YAMLExpansionBudget.check(tree, documentBytes: text.utf8.count)
    } catch {
      throw ImportError(file: file, location: error.location, message: error.message)
    }
    return try convert(tree.root, file: file, depth: 0, ordinals: &ordinals)
  }

  private static func describe(_ error: YAMLSyntaxError, file: String) -> ImportError {
    switch error.reason {
    case .duplicateKey(let key, _):
      return ImportError(file: file, location: error.location, message: "duplicate key \"\(key)\"")
    default:
      return ImportError(file: file, location: error.location, message: "invalid YAML: \(error.problem)")
    }
  }

  private static func convert(
    _ node: YAMLNode, file: String, depth: Int, ordinals: inout KeyOrdinals
  ) throws(ImportError) -> SourceNode {
    let here = node.location
    guard depth <= DocumentReader.maximumDepth else {
      throw ImportError(
        file: file, location: here,
        message: "the document nests deeper than \(DocumentReader.maximumDepth) levels")
    }
    switch node.kind {
    case .scalar:
      switch node.tag {
      case .null: return SourceNode(.null, at: here)
      case .bool:
        if let flag = node.bool { return SourceNode(.bool(flag), at: here) }
      case .int:
        if let number = node.int { return SourceNode(.number(.int(number)), at: here) }
        if let large = LargeInteger(node.string) {
          return SourceNode(.number(.largeInteger(large)), at: here)
        }
        if let number = node.double { return SourceNode(.number(.double(number)), at: here) }
      case .float:
        if let number = node.double { return SourceNode(.number(.double(number)), at: here) }
      default: break
      }
      return SourceNode(.string(node.string), at: here)
    case .sequence:
      var elements: [SourceNode] = []
      elements.reserveCapacity(node.children.count)
      for element in node.children {
        elements.append(try convert(element, file: file, depth: depth + 1, ordinals: &ordinals))
      }
      return SourceNode(.array(elements), at: here)
    case .mapping:
      var members: [SourceNode.Member] = []
      members.reserveCapacity(node.pairs.count)
      for (keyNode, value) in node.pairs {
        guard keyNode.kind == .scalar else {
          throw ImportError(file: file, location: keyNode.location, message: "keys must be strings")
        }
        let ordinal = ordinals.take()
        members.append(
          SourceNode.Member(
            key: keyNode.string, keyLocation: keyNode.location,
            value: try convert(value, file: file, depth: depth + 1, ordinals: &ordinals), ordinal: ordinal))
      }
      return SourceNode(.object(members), at: here)
    }
  }
}
