import TaggingPlan
import Yams

/// Reads a YAML document into a ``SourceNode`` tree with YAML's parser (Yams), each value at the
/// line and column Yams marks; nesting is bounded by ``DocumentReader/maximumDepth``, and what its
/// aliases expand to by `YAMLExpansionBudget`.
enum YAMLDocumentReader {
  /// The root value of `text`; errors name `file` and the place of the problem.
  static func read(_ text: String, file: String) throws(ImportError) -> SourceNode {
    do {
      guard let root = try Yams.compose(yaml: text) else {
        throw ImportError(file: file, message: "the file is empty")
      }
      do {
        try YAMLExpansionBudget.check(root, documentBytes: text.utf8.count)
      } catch {
        throw ImportError(file: file, location: error.location, message: error.message)
      }
      return try convert(root, file: file, depth: 0)
    } catch let error as ImportError {
      throw error
    } catch {
      throw describe(error, file: file)
    }
  }

  private static func describe(_ error: Error, file: String) -> ImportError {
    if let yamlError = error as? YamlError {
      switch yamlError {
      case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
        .composer(let context, let problem, let mark, _):
        let detail = context.map { "\($0.text) " } ?? ""
        return ImportError(
          file: file, location: SourceLocation(line: mark.line, column: mark.column),
          message: "invalid YAML: \(detail)\(problem)")
      case .duplicatedKeysInMapping(let duplicates, let context):
        return ImportError(
          file: file, location: SourceLocation(line: context.mark.line, column: context.mark.column),
          message: "duplicate key \(duplicates.map { "\"\($0)\"" }.joined(separator: ", "))")
      default:
        return ImportError(file: file, message: "invalid YAML: \(yamlError)")
      }
    }
    return ImportError(file: file, message: "invalid YAML: \(error)")
  }

  private static func location(_ node: Node) -> SourceLocation {
    guard let mark = node.mark else { return SourceLocation(line: 1, column: 1) }
    return SourceLocation(line: mark.line, column: mark.column)
  }

  private static func convert(_ node: Node, file: String, depth: Int) throws(ImportError) -> SourceNode {
    let here = location(node)
    guard depth <= DocumentReader.maximumDepth else {
      throw ImportError(
        file: file, location: here,
        message: "the document nests deeper than \(DocumentReader.maximumDepth) levels")
    }
    switch node {
    case .scalar(let scalar):
      let tag = Tag.Name(rawValue: node.tag.description)
      switch tag {
      case .null: return SourceNode(.null, at: here)
      case .bool:
        if let flag = node.bool { return SourceNode(.bool(flag), at: here) }
      case .int:
        if let number = node.int { return SourceNode(.number(Double(number)), at: here) }
        if let number = node.float { return SourceNode(.number(number), at: here) }
      case .float:
        if let number = node.float { return SourceNode(.number(number), at: here) }
      default: break
      }
      return SourceNode(.string(scalar.string), at: here)
    case .sequence(let sequence):
      var elements: [SourceNode] = []
      for element in sequence { elements.append(try convert(element, file: file, depth: depth + 1)) }
      return SourceNode(.array(elements), at: here)
    case .mapping(let mapping):
      var members: [SourceNode.Member] = []
      var keys: Set<String> = []
      for (keyNode, value) in mapping {
        guard case .scalar(let key) = keyNode else {
          throw ImportError(file: file, location: location(keyNode), message: "keys must be strings")
        }
        guard keys.insert(key.string).inserted else {
          throw ImportError(
            file: file, location: location(keyNode), message: "duplicate key \"\(key.string)\"")
        }
        members.append(
          SourceNode.Member(
            key: key.string, keyLocation: location(keyNode),
            value: try convert(value, file: file, depth: depth + 1)))
      }
      return SourceNode(.object(members), at: here)
    case .alias:
      throw ImportError(file: file, location: here, message: "unresolved YAML alias")
    }
  }
}
