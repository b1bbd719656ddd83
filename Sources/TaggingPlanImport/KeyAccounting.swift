import TaggingPlan

/// What became of every key of an import's sources: each is carried into the plan, or reported
/// with its place (a warning at it or around it, a grouped line for keys left out on purpose, or a
/// warning the accounting adds for a key nothing took). `keys == carried + reported`.
public struct KeyAccount: Sendable, Hashable, CustomStringConvertible {
  /// The keys of the sources (object members at every depth).
  public var keys = 0
  /// The keys the plan carries.
  public var carried = 0
  /// The keys reported as not carried.
  public var reported = 0
  /// Of ``reported``, the keys the importer's own warnings covered (the rest: the accounting's
  /// lines for keys left out on purpose, and for keys nothing took).
  public var reportedByImporter = 0

  /// What became of each key, in document order, when ``ImportOptions/listsEveryKey`` asked;
  /// otherwise empty.
  public var fates: [KeyFate] = []

  /// No keys.
  public init() {}

  /// `read 120 keys: 112 carried, 8 reported`.
  public var description: String { "read \(keys) keys: \(carried) carried, \(reported) reported" }
}

/// What became of one key of a source.
public struct KeyFate: Sendable, Hashable {
  /// The source file.
  public var file: String
  /// The key's place in the document.
  public var path: JSONPath
  /// Where the key is.
  public var location: SourceLocation
  /// Whether the plan carries it (otherwise a warning reports it).
  public var carried: Bool
}

/// Settles a ``KeyLedger`` against the documents it accounts for: walks every key, counts it,
/// and returns the warnings for the keys neither carried nor covered by a warning.
struct KeyAccounting {
  /// The account.
  private(set) var account = KeyAccount()
  /// The warnings added: one per key nothing took (with the keys inside it), one per document
  /// and reason for the keys left out on purpose.
  private(set) var warnings: [ImportWarning] = []
  private let ledger: KeyLedger
  /// The places the import's warnings name, by file.
  private let warned: [String: Set<SourceLocation>]

  /// Whether ``KeyAccount/fates`` is filled.
  private let listing: Bool

  /// Settles `ledger` given the import's `warnings`; `listing`: the account lists each key.
  init(_ ledger: KeyLedger, warnings: [ImportWarning], listing: Bool = false) {
    self.ledger = ledger
    self.listing = listing
    warned = Dictionary(grouping: warnings, by: \.file).mapValues { Set($0.map(\.location)) }
  }

  /// Accounts for every key of `document`.
  mutating func settle(_ document: SourceDocument) {
    var walk = Walk(document: document, ledger: ledger, warned: warned[document.file] ?? [], listing: listing)
    walk.visit(document.root, path: .root, cover: nil)
    account.keys += walk.account.keys
    account.carried += walk.account.carried
    account.reported += walk.account.reported
    account.reportedByImporter += walk.account.reportedByImporter
    account.fates += walk.account.fates
    warnings += walk.warnings
    for (reason, group) in walk.groups.sorted(by: { $0.value.first?.line ?? 0 < $1.value.first?.line ?? 0 }) {
      guard let first = group.first else { continue }
      let count = group.reduce(0) { $0 + $1.keys }
      let shown = group.prefix(8).map { "\($0.key) (line \($0.line))" }.joined(separator: ", ")
      let more = group.count > 8 ? ", and \(group.count - 8) more" : ""
      warnings.append(
        ImportWarning(
          file: document.file, location: first.location, path: first.path,
          message:
            "not carried: \(count == 1 ? "1 key" : "\(count) keys") of \(reason): \(shown)\(more)"))
    }
  }

  /// One left-out key of a group: where it is, and how many keys it holds with itself.
  struct Left {
    var key: String
    var location: SourceLocation
    var path: JSONPath
    var keys: Int
    var line: Int { location.line }
  }

  /// The walk over one document.
  private struct Walk {
    let document: SourceDocument
    let ledger: KeyLedger
    let warned: Set<SourceLocation>
    let listing: Bool
    var account = KeyAccount()
    var warnings: [ImportWarning] = []
    /// The keys left out on purpose, by reason, in document order.
    var groups: [String: [Left]] = [:]

    /// What reports the keys not carried under a key.
    enum Cover {
      /// A warning of the importer, at the key or its value.
      case importer
      /// The accounting's own line for the key (left out on purpose, or nothing took it).
      case accounting
    }

    /// The place of the node being visited, grown and cut as the walk goes (a path is made of it
    /// only for a key that is listed or reported: making one for every key cost more than the
    /// rest of the walk).
    var trail: [JSONPath.Component] = []
    /// The place of the node being visited.
    private var here: JSONPath { JSONPath(trail) }

    /// Counts the keys of `node` (at `path`); `cover`: what reports what is not carried here. A
    /// warning at a key reports it (and what it holds, unless carried); a warning at a value
    /// reports what it holds that is not carried.
    mutating func visit(_ node: SourceNode, path: JSONPath, cover: Cover?) {
      trail = path.components
      visit(node, cover: cover)
    }

    private mutating func visit(_ node: SourceNode, cover: Cover?) {
      if let elements = node.arrayElements {
        for (index, element) in elements.enumerated() {
          trail.append(.index(index))
          visit(element, cover: cover ?? (names(element) ? .importer : nil))
          trail.removeLast()
        }
        return
      }
      guard let members = node.objectMembers else { return }
      for member in members {
        trail.append(.key(member.key))
        defer { trail.removeLast() }
        account.keys += 1
        let isWarned = !warned.isEmpty && warned.contains(member.keyLocation)
        if listing {
          let carried = !isWarned && ledger.isCarried(member)
          account.fates.append(
            KeyFate(file: document.file, path: here, location: member.keyLocation, carried: carried))
        }
        if isWarned {
          // A warning at the key: what it says is not carried, with what the key holds.
          account.reported += 1
          account.reportedByImporter += 1
          visit(member.value, cover: .importer)
        } else if ledger.isCarried(member) {
          account.carried += 1
          visit(member.value, cover: names(member.value) ? .importer : nil)
        } else if let cover = cover ?? (names(member.value) ? .importer : nil) {
          account.reported += 1
          if cover == .importer { account.reportedByImporter += 1 }
          visit(member.value, cover: cover)
        } else if let reason = ledger.ignored[member.ordinal] {
          account.reported += 1
          let place = here
          let inside = reportedInside(member.value)
          groups[reason, default: []].append(
            Left(key: member.key, location: member.keyLocation, path: place, keys: 1 + inside))
        } else {
          account.reported += 1
          let place = here
          let inside = reportedInside(member.value)
          let holding =
            inside == 0 ? "" : inside == 1 ? ", nor the key inside it" : ", nor the \(inside) keys inside it"
          warnings.append(
            document.warning(
              member, place, "\(member.key) (\(place)) is not carried by Tagscope\(holding)"))
        }
      }
    }

    /// Visits what `node` holds under the cover of its key's line; returns how many keys inside
    /// it that line reports (those not carried, nor warned about by the importer).
    private mutating func reportedInside(_ node: SourceNode) -> Int {
      let (reported, byImporter) = (account.reported, account.reportedByImporter)
      visit(node, cover: .accounting)
      return (account.reported - reported) - (account.reportedByImporter - byImporter)
    }

    /// Whether a warning names the place of `node`. A YAML mapping starts where its first key
    /// does: a warning there is that key's, not the mapping's.
    private func names(_ node: SourceNode) -> Bool {
      guard !warned.isEmpty, warned.contains(node.location) else { return false }
      return node.objectMembers?.first?.keyLocation != node.location
    }
  }
}
