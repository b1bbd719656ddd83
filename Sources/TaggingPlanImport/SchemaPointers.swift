import Foundation

/// Resolves the JSON pointer fragments of `$ref`s (`#`, `#/$defs/price`, `#/properties/a~1b`) in
/// one schema document, remembering what it found: each pointer's target, and for each object
/// on the way with many members an index of them by key, so that N references into a `$defs` of
/// N schemas cost time linear in N (a scan of the members per reference was quadratic). Shared by
/// the conversions of one document's schemas.
final class SchemaPointers {
  /// Objects with more members than this are indexed; smaller ones are scanned.
  static let scanLimit = 8

  /// The document the pointers point into.
  let document: SourceNode
  private var targets: [String: (node: SourceNode, path: JSONPath)?] = [:]
  /// By the pointer (without `#`) of an indexed object: the position of each key's first member.
  private var memberIndexes: [Substring: [String: Int]] = [:]

  init(document: SourceNode) { self.document = document }

  /// The node `pointer` names and its path in the document; `nil` when it names nothing.
  func resolve(_ pointer: String) -> (node: SourceNode, path: JSONPath)? {
    if let known = targets[pointer] { return known }
    let found = walk(pointer)
    targets[pointer] = found
    return found
  }

  private func walk(_ pointer: String) -> (node: SourceNode, path: JSONPath)? {
    var fragment = pointer.dropFirst()
    if fragment.isEmpty { return (document, .root) }
    guard fragment.hasPrefix("/") else { return nil }
    fragment = fragment.dropFirst()
    var node = document
    var components: [JSONPath.Component] = []
    var prefixEnd = fragment.startIndex
    for rawToken in fragment.split(separator: "/", omittingEmptySubsequences: false) {
      let token = (String(rawToken).removingPercentEncoding ?? String(rawToken))
        .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      let prefix = fragment[fragment.startIndex..<prefixEnd]
      prefixEnd = rawToken.endIndex
      if let members = node.members, let position = position(of: token, in: members, at: prefix) {
        node = members[position].value
        components.append(.key(token))
      } else if let elements = node.elements, let index = Int(token), elements.indices.contains(index) {
        node = elements[index]
        components.append(.index(index))
      } else {
        return nil
      }
    }
    return (node, JSONPath(components))
  }

  /// The first member keyed `key` of the object at `prefix`.
  private func position(of key: String, in members: [SourceNode.Member], at prefix: Substring) -> Int? {
    guard members.count > Self.scanLimit else { return members.firstIndex { $0.key == key } }
    if let index = memberIndexes[prefix] { return index[key] }
    var index: [String: Int] = [:]
    index.reserveCapacity(members.count)
    for (position, member) in members.enumerated() where index[member.key] == nil {
      index[member.key] = position
    }
    memberIndexes[prefix] = index
    return index[key]
  }
}
