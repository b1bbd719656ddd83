import Foundation

/// Resolves the `$ref`s and `$dynamicRef`s of one schema document, never outside it: JSON pointer
/// fragments (`#/$defs/price`, `#/properties/a~1b`), the schema resources its `$id`s name (each
/// against the base URI of the schema around it, RFC 3986), and their anchors (`$anchor`,
/// `$dynamicAnchor`, draft-07's `"$id": "#name"`). Each resolution is remembered, the resources
/// and anchors are indexed in one walk of the document (the first time one is needed), and each
/// large object on a pointer's way is indexed by key, so N references cost time linear in N.
/// Shared by the conversions of one document's schemas.
final class SchemaPointers {
  /// Objects with more members than this are indexed; smaller ones are scanned.
  static let scanLimit = 8

  /// Where a reference leads: the schema, its path in the document, and the base URI of the
  /// schema around it (the schema's own `$id`, if any, applies on top).
  struct Target {
    var node: SourceNode
    var path: JSONPath
    var base: SchemaURI
  }

  /// The document the references point into.
  let document: SourceNode
  /// Whether `$id` beside `$ref` is ignored (draft-07 and earlier ignore `$ref`'s siblings).
  let legacyRefs: Bool
  /// The base URI of the document's root schema: its `$id`, or empty.
  let rootBase: SchemaURI
  private var targets: [String: Target?] = [:]
  /// By resource and pointer prefix of an indexed object: the position of each key's first member.
  private var memberIndexes: [String: [String: Int]] = [:]
  private var indexed = false
  private var resources: [String: Target] = [:]
  private var anchors: [String: Target] = [:]
  private var dynamicAnchors: Set<String> = []

  /// `legacyRefs`, when not given, is told from the root's `$schema` (draft-03 to draft-07).
  init(document: SourceNode, legacyRefs: Bool? = nil) {
    self.document = document
    // The root's `$schema` names the dialect references are resolved in: carried.
    let dialect = document.member("$schema")
    if let dialect, dialect.value.string != nil { KeyLedger.current?.carry(dialect) }
    let legacy = legacyRefs ?? (dialect?.value.string.map(Self.namesDraft07OrEarlier) ?? false)
    self.legacyRefs = legacy
    rootBase = Self.effectiveBase(of: document, around: SchemaURI(""), legacy: legacy)
  }

  private static let draftMarker: [UInt8] = Array("draft-0".utf8)

  /// Whether the dialect URI `dialect` names draft-03 to draft-07 (`…/draft-07/schema#`). Searched
  /// by bytes: `String.contains` goes through `NSString` here, and the generic `UTF8View` search
  /// cost more still, for a question every document of an import asks.
  static func namesDraft07OrEarlier(_ dialect: String) -> Bool {
    var dialect = dialect
    return dialect.withUTF8 { bytes in
      let needle = draftMarker
      guard bytes.count >= needle.count else { return false }
      for start in 0...(bytes.count - needle.count)
      where bytes[start] == needle[0] && bytes[start..<start + needle.count].elementsEqual(needle) {
        return true
      }
      return false
    }
  }

  /// The node `pointer` (a fragment, `#/…`, or an anchor, `#name`) names in the root resource and
  /// its path; `nil` when it names nothing.
  func resolve(_ pointer: String) -> (node: SourceNode, path: JSONPath)? {
    target(rootBase.resolving(pointer)).map { ($0.node, $0.path) }
  }

  /// Whether `uri`'s resource (without fragment) is this document or a schema resource in it.
  func holds(_ uri: SchemaURI) -> Bool {
    let resource = uri.resource
    if resource == rootBase.resource { return true }
    buildIndex()
    return resources[resource] != nil
  }

  /// What the absolute reference `uri` names; `nil` when nothing in the document.
  func target(_ uri: SchemaURI) -> Target? {
    let key = uri.text
    if let known = targets[key] { return known }
    let found = find(uri)
    targets[key] = found
    return found
  }

  /// What `$dynamicRef` `uri` names with the resources `scopes` (outermost first) entered on
  /// the way: when its first target has a `$dynamicAnchor` of the fragment's name, the
  /// outermost resource with a `$dynamicAnchor` of that name; else the first target.
  func dynamicTarget(_ uri: SchemaURI, scopes: [String]) -> Target? {
    guard let initial = target(uri) else { return nil }
    guard let name = uri.fragment, !name.isEmpty, !name.hasPrefix("/"),
      initial.node["$dynamicAnchor"]?.string == name
    else { return initial }
    buildIndex()
    for scope in scopes where dynamicAnchors.contains(scope + "#" + name) {
      if let outer = anchors[scope + "#" + name] { return outer }
    }
    return initial
  }

  /// What 2019-09's `$recursiveRef` `uri` (`#`) names with the resources `scopes` entered: when
  /// its first target says `"$recursiveAnchor": true`, the outermost resource of the scope that
  /// says it too; else the first target.
  func recursiveTarget(_ uri: SchemaURI, scopes: [String]) -> Target? {
    guard let initial = target(uri) else { return nil }
    guard initial.node["$recursiveAnchor"]?.bool == true else { return initial }
    buildIndex()
    for scope in scopes {
      if let outer = resources[scope], outer.node["$recursiveAnchor"]?.bool == true { return outer }
    }
    return initial
  }

  private func find(_ uri: SchemaURI) -> Target? {
    let resource = uri.resource
    let fragment = uri.fragment ?? ""
    let start: Target
    if resource == rootBase.resource {
      start = Target(node: document, path: .root, base: SchemaURI(""))
    } else {
      buildIndex()
      guard let found = resources[resource] else { return nil }
      start = found
    }
    if fragment.isEmpty { return start }
    if fragment.hasPrefix("/") { return walk(fragment.dropFirst(), from: start, resource: resource) }
    buildIndex()
    return anchors[resource + "#" + fragment]
  }

  /// The base URI inside `node`, `around` being the one around it.
  static func effectiveBase(of node: SourceNode, around: SchemaURI, legacy: Bool) -> SchemaURI {
    guard let members = node.members,
      let id = members.first(where: { $0.key == "$id" })?.value.string, !id.hasPrefix("#"),
      !(legacy && members.contains { $0.key == "$ref" })
    else { return around }
    var base = around.resolving(id)
    base.fragment = nil
    return base
  }

  /// Indexes the document's schema resources and anchors, depth first (the first of a name
  /// wins); `enum`, `const`, `default` and `examples` hold data, not schemas.
  private func buildIndex() {
    guard !indexed else { return }
    indexed = true
    resources[rootBase.resource] = Target(node: document, path: .root, base: SchemaURI(""))
    var pending: [Target] = [Target(node: document, path: .root, base: SchemaURI(""))]
    while let next = pending.popLast() {
      if let elements = next.node.elements {
        for (index, element) in elements.enumerated().reversed() {
          pending.append(Target(node: element, path: next.path.index(index), base: next.base))
        }
      }
      guard let members = next.node.members else { continue }
      let base = Self.effectiveBase(of: next.node, around: next.base, legacy: legacyRefs)
      if base != next.base, resources[base.resource] == nil { resources[base.resource] = next }
      for member in members {
        guard let name = member.value.string else { continue }
        switch member.key {
        case "$anchor": register(name, in: base, next)
        case "$dynamicAnchor":
          register(name, in: base, next)
          dynamicAnchors.insert(base.resource + "#" + name)
        case "$id":
          let fragment = next.base.resolving(name).fragment ?? ""
          if !fragment.isEmpty, !fragment.hasPrefix("/") { register(fragment, in: base, next) }
        default: break
        }
      }
      for member in members.reversed()
      where !["enum", "const", "default", "examples"].contains(member.key) {
        pending.append(Target(node: member.value, path: next.path.key(member.key), base: base))
      }
    }
  }

  private func register(_ name: String, in base: SchemaURI, _ target: Target) {
    let key = base.resource + "#" + name
    if anchors[key] == nil { anchors[key] = target }
  }

  /// The JSON pointer `pointer` (after `#/`) from `start`, the base URIs of the schemas on the way
  /// followed.
  private func walk(_ pointer: Substring, from start: Target, resource: String) -> Target? {
    var node = start.node
    var around = start.base
    var components = start.path.components
    var prefixEnd = pointer.startIndex
    for rawToken in pointer.split(separator: "/", omittingEmptySubsequences: false) {
      let token = (String(rawToken).removingPercentEncoding ?? String(rawToken))
        .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
      let prefix = resource + "#" + pointer[pointer.startIndex..<prefixEnd]
      prefixEnd = rawToken.endIndex
      let inner = Self.effectiveBase(of: node, around: around, legacy: legacyRefs)
      if let members = node.members, let position = position(of: token, in: members, at: prefix) {
        KeyLedger.current?.carry(members[position])
        node = members[position].value
        components.append(.key(token))
      } else if let elements = node.elements, let index = Int(token), elements.indices.contains(index) {
        node = elements[index]
        components.append(.index(index))
      } else {
        return nil
      }
      around = inner
    }
    return Target(node: node, path: JSONPath(components), base: around)
  }

  /// The first member keyed `key` of the object at `prefix`.
  private func position(of key: String, in members: [SourceNode.Member], at prefix: String) -> Int? {
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
