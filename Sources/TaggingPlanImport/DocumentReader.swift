import Foundation
import TaggingPlan
import Yams

/// Reads JSON and YAML sources into ``SourceNode`` trees: YAML's parser (Yams) for both, so every
/// value has its line and column; JSON it refuses falls back to ``PositionedJSONParser``.
public enum DocumentReader {
  /// The largest source read.
  public static let maximumBytes = 64 << 20
  /// How deeply a document may nest.
  static let depthLimit = PositionedJSONParser.depthLimit

  /// The file at `path`, parsed.
  public static func read(path: String) throws(ImportError) -> SourceNode {
    try parse(try text(path: path), file: path)
  }

  /// The text of the file at `path` (UTF-8, at most ``maximumBytes``).
  static func text(path: String) throws(ImportError) -> String {
    guard let handle = FileHandle(forReadingAtPath: path) else {
      let reason = FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file"
      throw ImportError(file: path, message: "cannot read the file: \(reason)")
    }
    defer { try? handle.close() }
    var data = Data()
    do {
      while let chunk = try handle.read(upToCount: 1 << 16), !chunk.isEmpty {
        data.append(chunk)
        if data.count > maximumBytes {
          throw ImportError(file: path, message: "the file is larger than \(maximumBytes >> 20) MiB")
        }
      }
    } catch let error as ImportError {
      throw error
    } catch {
      throw ImportError(file: path, message: "cannot read the file: \(error.localizedDescription)")
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw ImportError(file: path, message: "the file is not UTF-8 text")
    }
    return text
  }

  /// `text` (JSON or YAML) parsed; `file` names it in errors.
  public static func parse(_ text: String, file: String) throws(ImportError) -> SourceNode {
    let trimmed = text.drop { $0 == "\u{FEFF}" || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
    let looksLikeJSON = trimmed.first == "{" || trimmed.first == "["
    if let depthProblem = nestingProblem(text) {
      throw ImportError(
        file: file, location: depthProblem, message: "the document nests deeper than \(depthLimit) levels")
    }
    do {
      guard let root = try Yams.compose(yaml: text) else {
        throw ImportError(file: file, message: "the file is empty")
      }
      return try convert(root, file: file, depth: 0)
    } catch let yamlError {
      guard looksLikeJSON else {
        if let error = yamlError as? ImportError { throw error }
        throw describe(yamlError, file: file)
      }
      do {
        return try PositionedJSONParser.parse(text)
      } catch {
        throw ImportError(file: file, location: error.location, message: "invalid JSON: \(error.message)")
      }
    }
  }

  /// Where flow collections (`{`, `[`) first nest deeper than ``depthLimit`` outside strings, so
  /// the recursive YAML composer never sees such a document.
  static func nestingProblem(_ text: String) -> SourceLocation? {
    var depth = 0
    var line = 1
    var column = 0
    var inString = false
    var escaped = false
    for byte in text.utf8 {
      if byte == 0x0A {
        line += 1
        column = 0
      } else if byte & 0xC0 != 0x80 {
        column += 1
      }
      if inString {
        if escaped {
          escaped = false
        } else if byte == UInt8(ascii: "\\") {
          escaped = true
        } else if byte == UInt8(ascii: "\"") {
          inString = false
        }
        continue
      }
      switch byte {
      case UInt8(ascii: "\""): inString = true
      case UInt8(ascii: "{"), UInt8(ascii: "["):
        depth += 1
        if depth > depthLimit { return SourceLocation(line: line, column: column) }
      case UInt8(ascii: "}"), UInt8(ascii: "]"): depth = max(0, depth - 1)
      default: break
      }
    }
    return nil
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
    guard depth <= depthLimit else {
      throw ImportError(
        file: file, location: here, message: "the document nests deeper than \(depthLimit) levels")
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
