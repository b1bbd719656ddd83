/// Bounds what a composed YAML document expands to once its aliases are followed.
///
/// ``YAMLTree`` shares an anchored node between its aliases, so composing is cheap, but every walk of the
/// tree (a plan's builder, an import's converter) visits each alias's whole node again: 883 bytes
/// of nested aliases reach ten million nodes. ``check(_:documentBytes:)`` counts the nodes a walk
/// would visit and stops at a budget of a small multiple of the document's size.
package enum YAMLExpansionBudget {
  /// Nodes allowed for every byte of the document (a node takes at least one byte without
  /// aliases; the rest is room for aliases that share a definition a few times).
  package static let nodesPerByte = 10
  /// Nodes always allowed, whatever the document's size.
  package static let minimumNodes = 10_000

  /// The nodes a document of `documentBytes` bytes may expand to.
  package static func nodes(forDocumentOf documentBytes: Int) -> Int {
    max(minimumNodes, documentBytes.multipliedReportingOverflow(by: nodesPerByte).partialValue)
  }

  /// The budget was exceeded: `location` is the sequence or mapping whose alias was being
  /// expanded (the node being visited when none was).
  package struct Exceeded: Error, Sendable {
    /// Where the expansion went past the budget.
    package var location: SourceLocation
    /// The nodes allowed.
    package var budget: Int

    /// What to tell the user.
    package var message: String {
      "YAML aliases expand the document past \(budget) nodes: too many aliases of aliases"
    }
  }

  /// Throws ``Exceeded`` when walking `tree` (following aliases) visits more nodes than a
  /// document of `documentBytes` bytes may expand to; the walk stops there, so it costs at most the
  /// budget. A tree without aliases visits each node once: it is not walked.
  package static func check(_ tree: YAMLTree, documentBytes: Int) throws(Exceeded) {
    let budget = nodes(forDocumentOf: documentBytes)
    guard tree.hasAliases else { return }
    // Each entry: a node to visit and the container of the outermost alias it was reached through.
    var pending: [(node: YAMLNode, aliasSite: SourceLocation?)] = [(tree.root, nil)]
    var visited = 0
    while let (node, aliasSite) = pending.popLast() {
      visited += 1
      if visited > budget {
        throw Exceeded(location: aliasSite ?? node.location, budget: budget)
      }
      let children = node.children
      for position in children.indices.reversed() {
        let site = aliasSite ?? (children.isAlias(at: position) ? node.location : nil)
        pending.append((children[position], site))
      }
    }
  }
}
