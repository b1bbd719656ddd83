/// The differences between two recordings of the same journey (e.g. last release and this build),
/// order-insensitive: each tag signature is compared with its counterpart whatever the timing.
public struct RecordingDiff: Sendable {
  /// Every difference, by tag, then provider, then kind of change.
  public var findings: [DiffFinding]
  /// Records and tag signatures in each recording.
  public var baseRecords: Int
  public var newRecords: Int
  public var baseTags: Int
  public var newTags: Int
  /// Every tag signature of either recording, sorted.
  public var allTags: [TagSignature]

  /// Compares `base` with `new`.
  public init(base: RecordingProfile, new: RecordingProfile) {
    baseRecords = base.records
    newRecords = new.records
    baseTags = base.tagCount
    newTags = new.tagCount
    var findings: [DiffFinding] = []
    allTags = Self.union(base, new)
    for tag in allTags {
      Self.compare(tag, base.tag(tag), new.tag(tag), into: &findings)
    }
    self.findings = findings
  }

  /// The signatures of either profile, once each, sorted (by ``TagSignature/<``, a signature
  /// without a screen before one whose screen is empty): the base's and the new ones not in it,
  /// counted first, in one array of that size sorted in place (rather than a set of both and
  /// sorted copies).
  static func union(_ base: RecordingProfile, _ new: RecordingProfile) -> [TagSignature] {
    var added = 0
    new.forEachSignature { if !base.contains($0) { added += 1 } }
    var all: [TagSignature] = []
    all.reserveCapacity(base.tagCount + added)
    base.forEachSignature { all.append($0) }
    new.forEachSignature { if !base.contains($0) { all.append($0) } }
    all.sort { lhs, rhs in lhs < rhs || (!(rhs < lhs) && lhs.screen == nil && rhs.screen != nil) }
    return all
  }

  /// Findings whose change is in `changes`.
  public func findings(in changes: Set<DiffChange>) -> [DiffFinding] {
    findings.filter { changes.contains($0.change) }
  }

  /// How many findings of each change, in the order of ``DiffChange``.
  public var counts: [(change: DiffChange, count: Int)] {
    DiffChange.allCases.compactMap { change in
      let count = findings.count { $0.change == change }
      return count > 0 ? (change, count) : nil
    }
  }

  private static func compare(
    _ tag: TagSignature, _ base: RecordingProfile.TagProfile?, _ new: RecordingProfile.TagProfile?,
    into findings: inout [DiffFinding]
  ) {
    guard let base, let new else {
      let finding = DiffFinding(
        change: base == nil ? .added : .removed, tag: tag, baseCount: base?.count ?? 0,
        newCount: new?.count ?? 0)
      findings.append(finding)
      return
    }
    paths(base.properties, new.properties) { change, path, was, now in
      findings.append(
        DiffFinding(
          change: change.property, tag: tag, path: path, base: was, new: now, baseCount: base.count,
          newCount: new.count))
    }
    for provider in Set(base.providers.keys).union(new.providers.keys).sorted() {
      compare(tag, provider, base.providers[provider], new.providers[provider], into: &findings)
    }
  }

  private static func compare(
    _ tag: TagSignature, _ provider: String, _ base: RecordingProfile.ProviderProfile?,
    _ new: RecordingProfile.ProviderProfile?, into findings: inout [DiffFinding]
  ) {
    guard let base, let new else {
      findings.append(
        DiffFinding(
          change: base == nil ? .providerAdded : .providerRemoved, tag: tag, provider: provider,
          base: base.map(statuses), new: new.map(statuses), baseCount: base?.count ?? 0,
          newCount: new?.count ?? 0))
      return
    }
    if Set(base.statuses.keys) != Set(new.statuses.keys) {
      findings.append(
        DiffFinding(
          change: .status, tag: tag, provider: provider, base: statuses(base), new: statuses(new),
          baseCount: base.count, newCount: new.count))
    }
    var removed = Set(base.calls.keys).subtracting(new.calls.keys)
    var added = Set(new.calls.keys).subtracting(base.calls.keys)
    var pairs: [(was: String, now: String)] = Set(base.calls.keys).intersection(new.calls.keys).sorted().map {
      ($0, $0)
    }
    for (was, now) in renames(removed: removed, added: added, base: base, new: new) {
      removed.remove(was)
      added.remove(now)
      pairs.append((was, now))
      findings.append(
        DiffFinding(
          change: .renamed, tag: tag, provider: provider, call: now, base: was, new: now,
          baseCount: base.calls[was]!.count, newCount: new.calls[now]!.count))
    }
    for name in removed.sorted() {
      findings.append(
        DiffFinding(
          change: .callRemoved, tag: tag, provider: provider, call: name, baseCount: base.calls[name]!.count,
          newCount: 0))
    }
    for name in added.sorted() {
      findings.append(
        DiffFinding(
          change: .callAdded, tag: tag, provider: provider, call: name, baseCount: 0,
          newCount: new.calls[name]!.count))
    }
    for (was, now) in pairs.sorted(by: { $0.now < $1.now }) {
      let before = base.calls[was]!
      let after = new.calls[now]!
      if before.methods != after.methods {
        findings.append(
          DiffFinding(
            change: .method, tag: tag, provider: provider, call: now,
            base: before.methods.sorted().joined(separator: ", "),
            new: after.methods.sorted().joined(separator: ", "),
            baseCount: before.count, newCount: after.count))
      }
      paths(before.parameters, after.parameters) { change, path, old, current in
        findings.append(
          DiffFinding(
            change: change.parameter, tag: tag, provider: provider, call: now, path: path, base: old,
            new: current,
            baseCount: before.count, newCount: after.count))
      }
    }
  }

  /// Pairs calls that disappeared with calls that appeared: one of each is a rename; more are
  /// paired by the parameters they share (at least half of either's), most alike first.
  static func renames(
    removed: Set<String>, added: Set<String>, base: RecordingProfile.ProviderProfile,
    new: RecordingProfile.ProviderProfile
  ) -> [(String, String)] {
    guard !removed.isEmpty, !added.isEmpty else { return [] }
    if removed.count == 1, added.count == 1 { return [(removed.first!, added.first!)] }
    var candidates: [(score: Double, was: String, now: String)] = []
    for was in removed {
      let before = Set(base.calls[was]!.parameters.types.keys)
      for now in added {
        let after = Set(new.calls[now]!.parameters.types.keys)
        let shared = Double(before.intersection(after).count)
        let score = shared / Double(max(1, max(before.count, after.count)))
        if score >= 0.5 { candidates.append((score, was, now)) }
      }
    }
    candidates.sort { lhs, rhs in
      lhs.score != rhs.score ? lhs.score > rhs.score : (lhs.was, lhs.now) < (rhs.was, rhs.now)
    }
    var usedBase: Set<String> = []
    var usedNew: Set<String> = []
    var pairs: [(String, String)] = []
    for candidate in candidates where !usedBase.contains(candidate.was) && !usedNew.contains(candidate.now) {
      usedBase.insert(candidate.was)
      usedNew.insert(candidate.now)
      pairs.append((candidate.was, candidate.now))
    }
    return pairs
  }

  /// A path change, before being told whether it is a property's or a parameter's.
  enum PathChange {
    case removed, added, type, uncompared

    var property: DiffChange {
      switch self {
      case .removed: .propertyRemoved
      case .added: .propertyAdded
      case .type: .propertyType
      case .uncompared: .propertyUncompared
      }
    }

    var parameter: DiffChange {
      switch self {
      case .removed: .paramRemoved
      case .added: .paramAdded
      case .type: .paramType
      case .uncompared: .paramUncompared
      }
    }
  }

  /// Reports paths gone, new or of other types; a path under one that is gone or new is not
  /// reported again (`item.id` when `item` is gone). Keys past the limits of ``PathTypes`` are
  /// reported by their count when it differs (their path is `…`).
  static func paths(
    _ base: PathTypes, _ new: PathTypes, _ report: (PathChange, String, String?, String?) -> Void
  ) {
    if base.uncompared != new.uncompared {
      report(.uncompared, "…", String(base.uncompared), String(new.uncompared))
    }
    let removed = Set(base.types.keys).subtracting(new.types.keys)
    let added = Set(new.types.keys).subtracting(base.types.keys)
    for path in Set(base.types.keys).union(new.types.keys).sorted() {
      let before = base.types[path]
      let after = new.types[path]
      switch (before, after) {
      case (let before?, nil) where !hasAncestor(path, in: removed):
        report(.removed, path, before.description, nil)
      case (nil, let after?) where !hasAncestor(path, in: added):
        report(.added, path, nil, after.description)
      case (let before?, let after?) where before != after:
        report(.type, path, before.description, after.description)
      default: break
      }
    }
  }

  static func hasAncestor(_ path: String, in set: Set<String>) -> Bool {
    var current = Substring(path)
    while let cut = current.lastIndex(where: { $0 == "." || $0 == "[" }) {
      current = current[..<cut]
      if set.contains(String(current)) { return true }
    }
    return false
  }

  static func statuses(_ provider: RecordingProfile.ProviderProfile) -> String {
    provider.statuses.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
  }
}
